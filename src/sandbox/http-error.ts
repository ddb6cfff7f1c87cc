// A refusal with a D6 body. Handlers throw it; the server turns it into
// {"error","error_description"[, "errors"]} and discards the request's writes.

export interface FieldError {
  field: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { error: this.code, error_description: this.message };
    if (this.errors) body.errors = this.errors;
    return body;
  }
}

/** 400 validation_failed naming one field (D6). */
export function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'validation_failed', `${field}: ${message}`, [{ field, message }]);
}

export function notFound(what: string, uid: string): HttpError {
  return new HttpError(404, 'not_found', `${what} ${JSON.stringify(uid)} not found`);
}
