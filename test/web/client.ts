/** A tiny cookie-keeping browser for the page tests: fetch with manual redirects and a cookie jar. */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
  setCookies: string[];
}

export class WebClient {
  /** `cookies`: pass another client's jar to browse two origins with one jar, as a browser does (cookies ignore ports). */
  constructor(
    readonly base: string,
    readonly cookies = new Map<string, string>(),
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.send('GET', path, undefined, headers);
  }

  async post(
    path: string,
    form: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<PageResponse> {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(form)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
    }
    return this.send('POST', path, body.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    });
  }

  /** Any method and body (sent as given, `headers` naming its type), with this browser's cookies. */
  async request(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string> = {},
  ): Promise<PageResponse> {
    return this.send(method, path, body, headers);
  }

  /** The `csrf_token` of the first form of a page fetched with this client. */
  async csrfFrom(path: string): Promise<string> {
    return csrfTokenOf((await this.get(path)).text);
  }

  async logIn(email: string, password: string): Promise<PageResponse> {
    const csrf = await this.csrfFrom('/login');
    return this.post('/login', { email, password, csrf_token: csrf });
  }

  private async send(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<PageResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`${this.base}${path}`, {
      method,
      body,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...headers },
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some(a => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get('location'),
      setCookies,
    };
  }
}

export function csrfTokenOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no csrf_token in the page');
  return match[1];
}

export function cookieLine(response: PageResponse, name: string): string | undefined {
  return response.setCookies.find(line => line.startsWith(`${name}=`));
}
