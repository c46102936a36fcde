/**
 * How long a new password may be, written once for the API, which refuses others
 * (`platform/auth/password.ts`, and its schemas' `minLength`/`maxLength`), and the console, whose
 * set-password form says the minimum and asks for it before sending. The API also refuses the
 * 10,000 most common passwords and the account's email address; that check stays on the server.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
