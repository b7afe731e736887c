/**
 * What a call of one operation needs, worked out once per client and operation: its label, its URL
 * template as a path serializer for openapi-fetch, whether it has path parameters, and its checks
 * (loaded with its first call). A call then does only what its inputs need.
 * @module
 */
import type { Check } from './checks';
import type { ValidationIssue } from './errors';
import type { RawIssue } from './issues';
import { describe, loadIssues, type OperationChecks, type Schema, type SchemaRef } from './validation';

/** What the generated operation table says about one operation. */
export interface Operation {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** Honours `Idempotency-Key`: the SDK sends one per call, and retries are safe. */
  readonly idempotent: boolean;
  /**
   * The spec lists it as answering 202 with a wallet challenge. Documentation only: any write whose
   * answer is a 202 challenge goes through the signed retry (the service extends signing).
   */
  readonly signed: boolean;
  /** Refused by production platforms. */
  readonly sandboxOnly: boolean;
  /** Answers the list envelope. */
  readonly paginated: boolean;
  /** A request body must be given. */
  readonly bodyRequired?: boolean | undefined;
  /**
   * @internal Schemas of the path parameters, the query and the body: inline (anything with zod's
   * `safeParse`), or their names in the generated zod module (the sandbox's; the client runs `checks`).
   */
  readonly params?: { readonly path?: SchemaRef | undefined; readonly query?: SchemaRef | undefined; readonly body?: SchemaRef | undefined } | undefined;
  /** @internal Name of the 2xx body schema (checked with `validateResponses`). */
  readonly response?: string | undefined;
  /** @internal Loads the checks compiled from the document's schemas (rows of the generated table only). */
  readonly checks?: (() => Promise<OperationChecks>) | undefined;
}

/** Parameters of one call, split by where they go. */
export interface CallInput {
  path?: Record<string, string> | undefined;
  query?: object | null | undefined;
  body?: unknown;
  /** Operation headers that are parameters (e.g. PASSKEY verify `Request-Id`). */
  header?: Record<string, string> | undefined;
}

type PathSerializer = (url: string, params: Record<string, unknown>) => string;

const SCRATCH: RawIssue[] = [];

/** One operation, prepared for a client. */
export class OperationPlan {
  readonly op: Operation;
  /** `POST /quotes`: for errors and logs (the template, never the values). */
  readonly label: string;
  /** openapi-fetch's name of the method. */
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  readonly write: boolean;
  /** Builds the URL from the template once split: no regular expression per call. */
  readonly pathSerializer: PathSerializer | undefined;
  /** Checks of path, query and body; `null` when the operation has none. */
  #checks: OperationChecks | null | undefined;
  readonly #loader: (() => Promise<OperationChecks>) | undefined;
  #loading: Promise<OperationChecks | null> | undefined;

  constructor(op: Operation, baseUrl: string) {
    this.op = op;
    this.label = `${op.method} ${op.path}`;
    this.method = op.method.toLowerCase() as OperationPlan['method'];
    this.write = op.method !== 'GET';
    this.pathSerializer = compilePath(baseUrl, op.path);
    // An operation of the document runs the checks compiled from it (its row carries their loader);
    // any other, its inline schemas.
    this.#loader = op.checks;
    this.#checks = this.#loader ? undefined : inlineChecks(op.params);
  }

  /**
   * Problems of the parameters, in the order path, query, body. Synchronous once the operation's
   * checks are loaded and when they pass (every call but the first, and the failing ones).
   */
  paramIssues(path: CallInput['path'], query: Record<string, unknown> | undefined, body: unknown): ValidationIssue[] | Promise<ValidationIssue[]> {
    const checks = this.#checks;
    if (checks === undefined) return this.#load().then(() => this.paramIssues(path, query, body));
    // Checks run synchronously: one scratch list serves every call, copied only when something failed.
    SCRATCH.length = 0;
    if (checks !== null) {
      if (checks.path) checks.path(path ?? {}, SCRATCH);
      if (query !== undefined && checks.query) checks.query(query, SCRATCH);
      if (body !== undefined && checks.body) checks.body(body, SCRATCH);
    }
    const required = body === undefined && this.op.bodyRequired === true;
    if (SCRATCH.length === 0 && !required) return [];
    const raw = SCRATCH.splice(0);
    return loadIssues().then(() => {
      const issues = describe(raw);
      if (required) issues.push({ path: '', rule: 'required', message: 'a request body is required' });
      return issues;
    });
  }

  #load(): Promise<OperationChecks | null> {
    return (this.#loading ??= this.#loader!().then(
      (checks) => (this.#checks = checks),
      (error: unknown) => {
        this.#loading = undefined; // a failed load (a chunk the network lost) may be tried again
        throw error;
      },
    ));
  }
}

/** Inline schemas (tests, the `request()` escape hatch) as checks; names are the sandbox's, not checked here. */
function inlineChecks(params: Operation['params']): OperationChecks | null {
  const asCheck = (ref: SchemaRef | undefined): Check | undefined => {
    if (ref === undefined || typeof ref === 'string') return undefined;
    return (value, issues) => {
      const result = (ref as Schema).safeParse(value);
      if (!result.success) for (const issue of result.error.issues) issues.push({ ...issue, path: [...issue.path] });
    };
  };
  const checks = { path: asCheck(params?.path), query: asCheck(params?.query), body: asCheck(params?.body) };
  return checks.path || checks.query || checks.body ? checks : null;
}

/**
 * The URL template, split once: `{name}` segments are filled with the encoded value (what openapi-fetch's
 * default serializer does for a plain segment). A template with other styles keeps openapi-fetch's own.
 */
function compilePath(baseUrl: string, path: string): PathSerializer | undefined {
  const parts = `${baseUrl}${path}`.split(/\{([^{}]*)\}/);
  if (parts.length === 1) return undefined;
  const names = parts.filter((_, i) => i % 2 === 1);
  if (names.some((name) => !/^[A-Za-z_$][\w$-]*$/.test(name))) return undefined;
  return (_url, params) => {
    let url = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      const value = params[parts[i]!];
      // A missing value keeps its placeholder, as openapi-fetch does (the wire checks refuse it first).
      url += (value === undefined || value === null ? `{${parts[i]}}` : encodeURIComponent(value as string)) + parts[i + 1]!;
    }
    return url;
  };
}
