// Direct API calls for test set-up and for checking what the UI stored: the same HTTP API the web
// app uses, called from Node.

function postLogin(baseUrl: string, email: string, password: string): Promise<Response> {
  return fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  static async login(baseUrl: string, email: string, password: string): Promise<Api> {
    const response = await postLogin(baseUrl, email, password);
    if (!response.ok) {
      throw new Error(`login as ${email} answered ${response.status}: ${await response.text()}`);
    }
    const { token } = (await response.json()) as { token: string };
    return new Api(baseUrl, token);
  }

  /**
   * Signs in as a user whose password someone else chose (made or reset through the API) and sets
   * `ownPassword` as its own, as the server asks before anything else: the session's fresh token.
   */
  static async loginWithOwnPassword(
    baseUrl: string,
    email: string,
    chosenPassword: string,
    ownPassword: string,
  ): Promise<Api> {
    const chosen = await Api.login(baseUrl, email, chosenPassword);
    const { token } = await chosen.post<{ token: string }>('/api/change-password', {
      currentPassword: chosenPassword,
      newPassword: ownPassword,
    });
    return new Api(baseUrl, token);
  }

  /** The status of a login attempt, without throwing: 200 or the error status. */
  static async loginStatus(baseUrl: string, email: string, password: string): Promise<number> {
    return (await postLogin(baseUrl, email, password)).status;
  }

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
    }
    return (await response.json()) as T;
  }

  get<T>(url: string): Promise<T> {
    return this.call<T>('GET', url);
  }

  post<T>(url: string, body: unknown): Promise<T> {
    return this.call<T>('POST', url, body);
  }
}
