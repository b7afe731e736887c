/**
 * Which part of the sandbox answers a request, and whether it may be asked at all. Over HTTP, in this
 * order: the `Host` (DNS rebinding, 421), the `Origin` (a foreign page, 403), then the control token
 * for the control plane and the configuration writes (401). Then CORS on every answer, preflights
 * answered without credentials, `/_sandbox/*` to the controls and the rest to the API. In-process
 * calls (fetch, msw) skip the three checks.
 * @module
 */
import {
  CONTROL_PREFIX,
  corsHeaders,
  forbiddenOrigin,
  handleControl,
  originVerdict,
  preflight,
  type Controls,
  type CorsOptions,
  type Exposure,
} from './control';
import { CONTROL_TOKEN_COOKIE, CONTROL_TOKEN_HEADER, cookieValue, hostAllowed, sameToken } from './exposure';
import { JSON_HEADERS, type SandboxRequest, type SandboxResponse } from './http';

/** Answers a request that came in through `exposure`. */
export type Route = (req: SandboxRequest, exposure: Exposure) => Promise<SandboxResponse>;

/** `PATCH /config` (under any version segment): where webhooks go, so it takes the control token. */
function isConfigWrite(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS' && /^\/[^/]+\/config\/?$/.test(path);
}

/** 421: a `Host` this server does not answer for (DNS rebinding). */
function misdirected(): SandboxResponse {
  return {
    status: 421,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({
      status: 421,
      code: 'MISDIRECTED_REQUEST',
      message: 'The Host header names neither a loopback address nor the address the sandbox is bound to (allowedHosts adds names).',
    }),
  };
}

/** 401: the control token is missing or wrong (its value is never echoed). */
function tokenRequired(cors: Record<string, string>): SandboxResponse {
  return {
    status: 401,
    headers: { ...JSON_HEADERS, ...cors },
    body: JSON.stringify({
      status: 401,
      code: 'UNAUTHORIZED',
      message: `This sandbox asks for its control token on /_sandbox/* and PATCH /config: send it in the ${CONTROL_TOKEN_HEADER} header (the inspector page: open /_sandbox/?token=<token> once).`,
    }),
  };
}

/** The route to `controls` and `api`, behind the checks above. */
export function createRouter(cors: CorsOptions, controls: Controls, api: (req: SandboxRequest) => Promise<SandboxResponse>): Route {
  return async (req, exposure) => {
    const origin = req.header('origin');
    const host = req.header('host');
    if (exposure.binding && !hostAllowed(host, exposure.binding)) return misdirected();
    if (req.method.toUpperCase() === 'OPTIONS') return preflight(origin, cors, exposure, req.header('access-control-request-headers'), host);
    if (exposure.binding && originVerdict(origin, cors, exposure, host) === undefined) return forbiddenOrigin(origin!);
    const url = new URL(req.url, 'http://sandbox.invalid');
    const path = url.pathname;
    const control = path.startsWith(CONTROL_PREFIX) || path === '/_sandbox';
    let setCookie: string | undefined;
    if (exposure.controlToken !== undefined && (control || isConfigWrite(req.method, path))) {
      const token = exposure.controlToken;
      // The inspector page opened as /_sandbox/?token=…: the token goes into a cookie its own reads carry.
      const fromQuery = control && req.method.toUpperCase() === 'GET' ? (url.searchParams.get('token') ?? undefined) : undefined;
      if (fromQuery !== undefined && sameToken(fromQuery, token)) setCookie = `${CONTROL_TOKEN_COOKIE}=${token}; Path=/_sandbox; HttpOnly; SameSite=Strict`;
      else if (!sameToken(req.header(CONTROL_TOKEN_HEADER), token) && !sameToken(cookieValue(req.header('cookie'), CONTROL_TOKEN_COOKIE), token))
        return tokenRequired(corsHeaders(origin, cors, exposure, host));
    }
    const res = control ? handleControl(req, path, controls, exposure) : await api(req);
    Object.assign(res.headers, corsHeaders(origin, cors, exposure, host));
    if (setCookie) res.headers['set-cookie'] = setCookie;
    return res;
  };
}
