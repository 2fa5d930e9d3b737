/** An error the client should see: status, message and optional data, as the envelope carries them. */
export class ApiError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly data: Record<string, unknown> | null = null,
    public readonly errors: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors: { path: string; message: string }[] = []) =>
  new ApiError(400, message, null, errors);
export const unauthorized = (message = 'Unauthorized request') => new ApiError(401, message);

/** The 401 of a call that needs a login; a caller whose token expired gets 'jwt expired' instead (http/errors.ts). */
export class LoginRequired extends ApiError {
  constructor(message: string) {
    super(401, message);
  }
}
export const loginRequired = (message: string) => new LoginRequired(message);
export const forbidden = (message = 'You are not allowed to do this') => new ApiError(403, message);
export const notFound = (message = 'Not found') => new ApiError(404, message);
/** Was here, and is gone for good on purpose (a moderators' take-down). */
export const gone = (message: string) => new ApiError(410, message);
export const conflict = (message: string, data: Record<string, unknown> | null = null) =>
  new ApiError(409, message, data);
export const tooMany = (message: string, data: Record<string, unknown> | null = null) => new ApiError(429, message, data);
export const tooLarge = (limitMb: number) => new ApiError(413, `File size should not exceed ${limitMb}MB`);
export const tooManyRequestsMessage = (retryInMs: number) =>
  `Too many requests, please try again in ${Math.ceil(retryInMs / 1000)} seconds.`;
export const tooManyRequests = (retryInMs: number) => new ApiError(429, tooManyRequestsMessage(retryInMs));
