// A browser's worth of the account page over HTTP: the session cookie kept and sent back, the
// CSRF token read from the page, the sign-in form posted.
import { SESSION_COOKIE } from '../../src/auth/sessions.js';
import type { TestServer } from './server.js';

/** A browser's worth of state: the session cookie, sent back on every request. */
export class Visitor {
  cookie: string | null = null;
  /** `headers` go with every request (an X-Forwarded-For, say). */
  constructor(
    private readonly server: Pick<TestServer, 'get'>,
    private readonly headers: Record<string, string> = {},
  ) {}

  async get(url: string): Promise<{ status: number; html: string; response: Response }> {
    const response = await this.server.get(url, { headers: this.sent(), redirect: 'manual' });
    this.keep(response);
    return { status: response.status, html: await response.text(), response };
  }

  async post(
    url: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; html: string; response: Response }> {
    const response = await this.server.get(url, {
      method: 'POST',
      headers: { ...this.sent(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    this.keep(response);
    return { status: response.status, html: await response.text(), response };
  }

  /** Posts a multipart form (the upload form of the Datasets tab), its fields in their order. */
  async postMultipart(
    url: string,
    form: FormData,
  ): Promise<{ status: number; html: string; response: Response }> {
    const response = await this.server.get(url, {
      method: 'POST',
      headers: this.sent(),
      body: form,
      redirect: 'manual',
    });
    this.keep(response);
    return { status: response.status, html: await response.text(), response };
  }

  /** The CSRF token of the account page as it is now. */
  async token(): Promise<string> {
    const { html } = await this.get('/account/');
    return /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
  }

  async signIn(username: string, password: string, next?: string) {
    const fields = { _csrf: await this.token(), username, password, ...(next && { next }) };
    return this.post('/account/sign-in', fields);
  }

  private sent(): Record<string, string> {
    return this.cookie ? { ...this.headers, Cookie: `${SESSION_COOKIE}=${this.cookie}` } : this.headers;
  }

  private keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (name === SESSION_COOKIE) this.cookie = value === '' ? null : value;
    }
  }
}
