// The version `bo --version` prints and the HTTP client announces (User-Agent).
export const VERSION = '0.3.0';
