// Types for the QR encoder that qrcode-terminal vendors (Kazuhiko Arase's, MIT). We use
// its module matrix only and draw it ourselves, with explicit colours.
declare module 'qrcode-terminal/vendor/QRCode/index.js' {
  export default class QRCode {
    constructor(typeNumber: number, errorCorrectLevel: number);
    addData(data: string): void;
    make(): void;
    getModuleCount(): number;
    isDark(row: number, col: number): boolean;
  }
}
