// Responses of the token endpoints. Every error has the D6 body, so a client can rely on
// `error` for the code and show `error_description` to a person.

export interface AuthResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function ok(body: unknown, status = 200): AuthResponse {
  return { status, body };
}

export function fail(
  status: number,
  error: string,
  description: string,
  extra: Record<string, unknown> = {},
): AuthResponse {
  return { status, body: { error, error_description: description, ...extra } };
}

export function validationFailed(fields: Array<{ field: string; message: string }>): AuthResponse {
  const names = fields.map((f) => f.field).join(', ');
  return fail(400, 'validation_failed', `Missing or invalid: ${names}.`, { errors: fields });
}

/** The request body as an object, or null when it is not one (arrays and scalars included). */
export function asObject(body: unknown): Record<string, unknown> | null {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : null;
}

/** A non-empty string field, or undefined. */
export function stringField(body: Record<string, unknown> | null, name: string): string | undefined {
  const value = body?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
