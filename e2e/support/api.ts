import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { AuthUser } from '@glimpse/contract';
import { verificationLink } from './outbox.ts';

export const API = '/api/v1';
export const PASSWORD = 'secret-pass-1';

export interface Envelope<T> {
  statusCode: number;
  data: T;
  message: string;
  success: boolean;
}

/** Fails with the server's message when the answer is not the expected status. */
export async function expectOk<T>(res: APIResponse, status = 200): Promise<Envelope<T>> {
  const body = (await res.json()) as Envelope<T>;
  expect(res.status(), `${res.url()}: ${body.message}`).toBe(status);
  return body;
}

let counter = 0;
/** Names unique across runs and within one, so tests never collide on a shared server. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
}

export interface NewAccount {
  fullName: string;
  email: string;
  password: string;
}

export function newAccount(fullName = 'E2E User'): NewAccount {
  return { fullName, email: `${uniqueName('user')}@example.test`.toLowerCase(), password: PASSWORD };
}

/** A logged-in API user: its tokens and a request wrapper that sends the Bearer token. */
export class ApiUser {
  constructor(
    readonly request: APIRequestContext,
    readonly account: NewAccount,
    readonly user: AuthUser,
    readonly accessToken: string,
    readonly refreshToken: string,
  ) {}

  get headers() {
    return { authorization: `Bearer ${this.accessToken}` };
  }

  async get<T>(path: string, params?: Record<string, string | number>): Promise<T> {
    return (await expectOk<T>(await this.request.get(API + path, { headers: this.headers, params }))).data;
  }

  async send<T>(method: 'post' | 'patch' | 'delete', path: string, data?: unknown, status = 200): Promise<T> {
    const res = await this.request[method](API + path, { headers: this.headers, data });
    return (await expectOk<T>(res, status)).data;
  }
}

export async function register(request: APIRequestContext, account: NewAccount): Promise<void> {
  await expectOk(await request.post(`${API}/auths/register`, { data: account }), 201);
}

/** Reads the verification link from the outbox and calls the API with its token. */
export async function verifyFromOutbox(request: APIRequestContext, email: string): Promise<void> {
  const token = (await verificationLink(email)).searchParams.get('token')!;
  await expectOk(await request.get(`${API}/auths/email-verification`, { params: { token } }));
}

export async function login(request: APIRequestContext, account: NewAccount): Promise<ApiUser> {
  const { data } = await expectOk<{ accessToken: string; refreshToken: string; user: AuthUser }>(
    await request.post(`${API}/auths/login`, { data: { email: account.email, password: account.password } }),
  );
  return new ApiUser(request, account, data.user, data.accessToken, data.refreshToken);
}

/** Register, verify through the outbox mail, log in: a ready-to-use channel. */
export async function createChannelUser(request: APIRequestContext, fullName = 'E2E Channel'): Promise<ApiUser> {
  const account = newAccount(fullName);
  await register(request, account);
  await verifyFromOutbox(request, account.email);
  return login(request, account);
}

/** The server's ADMIN_EMAIL (playwright.config.ts): that account becomes an admin once verified. */
export const ADMIN_EMAIL = 'admin@e2e.test';
const adminAccount: NewAccount = { fullName: 'E2E Admin', email: ADMIN_EMAIL, password: PASSWORD };

/**
 * The instance's admin (staff: moderates too), created on first use and logged in afresh each time.
 * Every spec shares the one account: the server makes only ADMIN_EMAIL an admin.
 */
export async function adminUser(request: APIRequestContext): Promise<ApiUser> {
  const res = await request.post(`${API}/auths/login`, { data: { email: ADMIN_EMAIL, password: PASSWORD } });
  if (res.status() === 401) {
    await register(request, adminAccount);
    await verifyFromOutbox(request, ADMIN_EMAIL);
  }
  const admin = await login(request, adminAccount);
  expect(admin.user.role).toBe('admin');
  return admin;
}
