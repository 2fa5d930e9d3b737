/** The types of the API's answers and queries, shared by api-client.ts and first-data.ts (which api-client.ts imports). */

/** Every API answer: the server's envelope around its data. */
export interface Envelope<T> {
  statusCode: number;
  data: T;
  message: string;
  success: boolean;
}

/** A query-string value; buildUrl leaves out undefined, null and empty ones. */
export type QueryValue = string | number | boolean | null | undefined;
