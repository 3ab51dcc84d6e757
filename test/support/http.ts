/**
 * A JSON value as the tests read it: what an answer holds is checked by assertions, not by types.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Json = any;

/** A response as the tests look at it. */
export interface HttpResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** JSON-encoded unless `raw` is given. */
  body?: unknown;
  /** A body sent as is (string or bytes). */
  raw?: string | Buffer;
  /** Leave out the Authorization header. */
  anonymous?: boolean;
}

/** Minimal HTTP client over fetch for the e2e tests, authenticated with one API key. */
export class Http {
  constructor(
    readonly baseUrl: string,
    public token: string,
    private readonly onResponse?: (method: string, path: string, response: HttpResponse) => void,
  ) {}

  async request<T = Json>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (!options.anonymous && !('authorization' in headers)) headers.authorization = `Bearer ${this.token}`;
    let body: string | Buffer | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    const response = { status: res.status, headers: res.headers, body: parsed as T, text };
    this.onResponse?.(method, path, response);
    return response;
  }

  get<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = Json>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  patch<T = Json>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
