/**
 * The pure handler: a {@link SandboxRequest} in, a {@link SandboxResponse} out, over the in-memory
 * world. Every adapter (fetch, msw, node:http) calls it. In order: due work on the clock runs, the
 * version segment and Basic credentials are checked, the operation is matched, sandbox-only
 * operations are refused in production, the body is parsed and path, query and body are validated
 * with the generated schemas, `Idempotency-Key` is required where the document says so and honoured, and the
 * route runs. Every answer
 * carries `X-Request-Id`.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { operations, type OperationId } from '../../generated/operations';
import * as schemas from '../../generated/zod.gen';
import type { Call, Ctx, Handler, RouteTable, UploadedFile } from '../domain/context';
import { SandboxError, invalidInput } from '../domain/errors';
import { compilePath, JSON_HEADERS, type PathPattern, type SandboxRequest, type SandboxResponse } from './http';
import { isWalletChallenge, type Reply } from '../domain/reply';
import type { Random } from '../domain/random';
import { withinIdempotencyWindow, type IdempotencyRec, type World } from '../domain/state';
import { coerceQuery, validate } from '../domain/validation';
import { admit } from '../domain/faults';
import { credentialRefusal } from '../domain/magic';
import { tokenCredentialRefusal } from '../domain/tokens';
import { API_VERSION as SDK_API_VERSION } from '../../core/version';

/** The API version segment the sandbox serves: the SDK's own (src/core/version.ts, a module of constants only). */
export const API_VERSION: typeof SDK_API_VERSION = SDK_API_VERSION;

/** SHA-256 of a request's method, path and body, hex: what an `Idempotency-Key` is matched against. */
function requestDigest(text: string): string {
  return Array.from(sha256(new TextEncoder().encode(text)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** How long an `Idempotency-Key` answer is replayed. */
export { IDEMPOTENCY_WINDOW_MS } from '../domain/state';

type Operation = (typeof operations)[OperationId];

interface CompiledRoute {
  op: Operation;
  pattern: PathPattern;
  run: Handler;
  validateBody: boolean;
}

const VERSION_PREFIX = `/${API_VERSION}`;

function compile(routes: RouteTable): CompiledRoute[] {
  const compiled = (Object.keys(operations) as OperationId[]).map((id) => {
    const route = routes[id];
    const op = operations[id];
    return typeof route === 'function'
      ? { op, pattern: compilePath(op.path), run: route, validateBody: true }
      : { op, pattern: compilePath(op.path), run: route.run, validateBody: route.validateBody };
  });
  // Literal segments win: `/customers/internal-accounts` before `/customers/{customerId}`.
  return compiled.sort((a, b) => b.pattern.literals - a.pattern.literals);
}

function toResponse(reply: Reply): SandboxResponse {
  if (reply.body === undefined) return { status: reply.status, headers: { ...reply.headers }, body: undefined };
  return { status: reply.status, headers: { ...JSON_HEADERS, ...reply.headers }, body: JSON.stringify(reply.body) };
}

function errorResponse(error: SandboxError): SandboxResponse {
  return toResponse({ status: error.status, body: error.toBody(), headers: error.headers });
}

/**
 * 401 unless the request carries well-formed HTTP Basic credentials. Any values are accepted but the
 * magic token ids (MAGIC.unauthorizedTokenId: 401, MAGIC.forbiddenTokenId: 403) and the API tokens this
 * sandbox issued, which take their own secret only and nothing once deleted (domain/tokens.ts).
 */
function checkAuthorization(header: string | undefined, world: World): void {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  let decoded: string | undefined;
  try {
    decoded = match ? atob(match[1]!) : undefined;
  } catch {
    decoded = undefined;
  }
  if (decoded === undefined || decoded.indexOf(':') < 1) {
    throw new SandboxError(
      401,
      'UNAUTHORIZED',
      header === undefined
        ? 'Missing Authorization header: send HTTP Basic credentials (any token id and secret work in the sandbox).'
        : 'Malformed Authorization header: expected `Basic base64(<token id>:<client secret>)`.',
      undefined,
      { 'WWW-Authenticate': 'Basic realm="crossborder-sandbox"' },
    );
  }
  const colon = decoded.indexOf(':');
  const refusal = credentialRefusal(decoded.slice(0, colon)) ?? tokenCredentialRefusal(world, decoded.slice(0, colon), decoded.slice(colon + 1));
  if (refusal) throw refusal;
}

/** `/agents/me` and its sub-paths: the agent's own calls, which take the agent's credential. */
function isAgentPath(path: string): boolean {
  return path === '/agents/me' || path.startsWith('/agents/me/');
}

/** The generated schema the operation table names. */
function schema<N extends keyof typeof schemas>(name: N | undefined): (typeof schemas)[N] | undefined {
  return name === undefined ? undefined : schemas[name];
}

/**
 * The fields of a `multipart/form-data` body, each as text (a file part as its content), and its file parts
 * as received (name, type, bytes), read from the body's bytes by the platform's own parser; 400 naming `body`
 * when it is not one.
 */
async function formFields(
  rawBody: Uint8Array | string,
  contentType: string | undefined,
): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile> }> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) {
    throw invalidInput(
      'body',
      `This operation takes a multipart/form-data body (Content-Type multipart/form-data; boundary=…); got ${contentType ?? 'no Content-Type'}.`,
    );
  }
  let form: FormData;
  try {
    form = await new Response(rawBody as BodyInit, { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    throw invalidInput('body', `The request body is not valid multipart/form-data: ${(error as Error).message}`);
  }
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  for (const [name, value] of form) {
    if (typeof value === 'string') fields[name] = value;
    else {
      const bytes = new Uint8Array(await value.arrayBuffer());
      files[name] = { name: value.name, type: value.type, bytes };
      fields[name] = new TextDecoder().decode(bytes);
    }
  }
  return { fields, files };
}

/** Builds the handler over `ctx` and one handler per operation. */
export function createCore(
  ctx: Ctx,
  routes: RouteTable,
  requestIds: Random,
  onError: (error: unknown) => void,
): (req: SandboxRequest) => Promise<SandboxResponse> {
  const compiled = compile(routes);
  let served = 0;

  /** The route of `method` and `path`, if there is one. */
  function find(method: string, path: string): { route: CompiledRoute; params: Record<string, string> } | undefined {
    for (const route of compiled) {
      if (route.op.method !== method) continue;
      const params = route.pattern.match(path);
      if (params) return { route, params };
    }
    return undefined;
  }

  /** No route for `method` and `path`: 404 naming the methods the path accepts, or that there is none. */
  function notFound(method: string, path: string): never {
    const allowed = compiled.filter((route) => route.pattern.match(path)).map((route) => route.op.method);
    if (allowed.length > 0) {
      throw new SandboxError(
        404,
        'NOT_FOUND',
        `No operation ${method} ${path}; this path accepts ${allowed.join(', ')}.`,
        { allowedMethods: allowed },
        {
          Allow: allowed.join(', '),
        },
      );
    }
    throw new SandboxError(404, 'NOT_FOUND', `No operation at ${path}.`, { path });
  }

  /** True when `answer` is a wallet challenge (see isWalletChallenge). */
  function challenged(answer: SandboxResponse): boolean {
    if (answer.status !== 202 || answer.body === undefined) return false;
    try {
      return isWalletChallenge(answer.status, JSON.parse(answer.body));
    } catch {
      return false;
    }
  }

  async function idempotent(key: string, fingerprint: string, run: () => Promise<SandboxResponse>): Promise<SandboxResponse> {
    const store = ctx.world.idempotency;
    const at = ctx.clock.now();
    const previous = store.get(key);
    if (previous && withinIdempotencyWindow(previous.storedMs, at)) {
      if (previous.fingerprint !== fingerprint) {
        throw new SandboxError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request; use a new key for a new request.', {
          idempotencyKey: key,
        });
      }
      const first = await previous.response;
      return { ...first, headers: { ...first.headers, 'Idempotent-Replayed': 'true' } };
    }
    // Stored before running, so a concurrent repeat waits for this answer instead of acting twice.
    const response = run();
    const world = ctx.world;
    const rec: IdempotencyRec = { fingerprint, storedMs: at, response };
    store.set(key, rec);
    const settled = await response;
    // A server error may not have happened at all, and a 202 wallet challenge is not the operation's answer
    // (its signed repeat carries the same key): let the repeat run rather than replay either. Any other 202
    // (a quote held for SCA) is the answer, replayed like a 200.
    if ((settled.status >= 500 || challenged(settled)) && ctx.world === world) store.delete(key);
    // The answer as the route gave it (a copy: the adapters add this request's own headers to `settled`),
    // settled, so that a state export keeps it.
    else if (store.get(key) === rec) rec.response = { status: settled.status, headers: { ...settled.headers }, body: settled.body };
    return settled;
  }

  async function runRoute(route: CompiledRoute, call: Call): Promise<SandboxResponse> {
    try {
      return toResponse(await route.run(ctx, call));
    } catch (error) {
      if (error instanceof SandboxError) return errorResponse(error);
      throw error;
    }
  }

  async function dispatch(req: SandboxRequest): Promise<SandboxResponse> {
    ctx.scheduler.runDue();
    const url = new URL(req.url, 'http://sandbox.invalid');
    if (url.pathname !== VERSION_PREFIX && !url.pathname.startsWith(`${VERSION_PREFIX}/`)) {
      throw new SandboxError(
        404,
        'NOT_FOUND',
        `Paths live under the version segment ${VERSION_PREFIX}/ (e.g. ${VERSION_PREFIX}/customers); got ${url.pathname}.`,
        {
          path: url.pathname,
          hint: `prefix the path with ${VERSION_PREFIX}`,
        },
      );
    }
    const method = req.method.toUpperCase();
    const path = url.pathname.slice(VERSION_PREFIX.length) || '/';
    // The agent's own calls take its Bearer credential, checked by their handlers (domain/agents.ts); an operation
    // the document marks `security: []` (a device code's redemption: the code is the proof) takes none. Every other
    // call, and a path with no operation, takes the platform's Basic one (401 before 404, as production answers).
    const found = find(method, path);
    if (!(found?.route.op.anonymous || isAgentPath(path))) checkAuthorization(req.header('authorization'), ctx.world);
    await admit(ctx); // the configured latency and rate limit (domain/faults.ts)
    const { route, params } = found ?? notFound(method, path);
    const op = route.op;
    if (op.sandboxOnly && ctx.environment === 'production') {
      throw new SandboxError(403, 'SANDBOX_ONLY', 'This endpoint is only available with sandbox API keys.', { operation: op.id });
    }
    if (req.bodyError) throw invalidInput('body', req.bodyError);
    const rawBody = req.body ?? '';
    let json: unknown;
    let files: Record<string, UploadedFile> | undefined;
    if (op.multipart !== undefined) {
      const bytes = req.bytes ?? rawBody;
      if (bytes.length > 0 && !(typeof bytes === 'string' && bytes.trim() === ''))
        ({ fields: json, files } = await formFields(bytes, req.header('content-type')));
    } else if (rawBody.trim() !== '') {
      try {
        json = JSON.parse(rawBody);
      } catch (error) {
        throw invalidInput('body', `The request body is not valid JSON: ${(error as Error).message}`);
      }
    }
    if (json === undefined && op.bodyRequired)
      throw invalidInput('body', `${op.method} ${op.path} needs a ${op.multipart ? 'multipart/form-data' : 'JSON'} request body.`);
    const key = req.header('idempotency-key');
    // An operation whose document marks the header required (IdempotencyKeyRequired) is refused without one, as
    // production refuses it, before its parameters are checked or its route runs.
    if (key === undefined && op.idempotencyKeyRequired) throw invalidInput('Idempotency-Key', `${op.method} ${op.path} requires an Idempotency-Key header.`);
    if (key !== undefined && (key.length < 1 || key.length > 255)) throw invalidInput('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters.');
    const call: Call = {
      method,
      path,
      params: validate('path', schema(op.params.path), params) as Record<string, string>,
      query: validate('query', schema(op.params.query), coerceQuery(schema(op.params.query), url.searchParams)) as Record<string, unknown>,
      body: json !== undefined && route.validateBody ? validate('body', schema(op.params.body), json) : json,
      json,
      rawBody,
      ...(files ? { files } : {}),
      header: req.header,
    };
    // The request is remembered by its SHA-256 only: a body may carry a secret (a provider's API secret), and
    // the remembered answers are part of a state export.
    if (op.idempotent && key !== undefined) return idempotent(key, requestDigest(`${method} ${path}\n${rawBody}`), () => runRoute(route, call));
    return runRoute(route, call);
  }

  return async function handle(req: SandboxRequest): Promise<SandboxResponse> {
    const requestId = `req_${(++served).toString(36).padStart(6, '0')}${requestIds.pick('0123456789abcdefghjkmnpqrstvwxyz', 14)}`;
    let response: SandboxResponse;
    try {
      response = await dispatch(req);
    } catch (error) {
      if (error instanceof SandboxError) {
        response = errorResponse(error);
      } else {
        onError(error);
        response = toResponse({
          status: 500,
          body: { status: 500, code: 'INTERNAL_ERROR', message: 'The sandbox failed to handle this request; see its console.' },
        });
      }
    }
    response.headers['X-Request-Id'] = requestId;
    return response;
  };
}
