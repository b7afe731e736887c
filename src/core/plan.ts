/**
 * What a call of one operation needs, worked out once per client and operation: its label, its URL
 * (the template compiled into a path serializer; openapi-fetch's serializers for the rest), its checks
 * (loaded with its first call), and the decisions that follow from its method: whether it is a write,
 * whether a request may be repeated, whether a failed write's outcome is unknown. Every other stage
 * asks the plan; none decides these again. A call then does only what its inputs need.
 * @module
 */
import { defaultPathSerializer } from 'openapi-fetch';
import type { DocumentOperation, OperationId } from '../generated/operations';
import type { OperationQueries, operations as OperationTypes } from '../generated/types';
import type { ValidationIssue } from './errors';
import type { RequestChecks } from './parts';
import type { SchemaRef } from './validation';

/** What the generated operation table says about one operation. */
export interface Operation {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** Honours `Idempotency-Key`: the SDK sends one per call, and retries are safe. */
  readonly idempotent?: boolean | undefined;
  /**
   * The spec lists it as answering 202 with a wallet challenge. Documentation only: any write whose
   * answer is a 202 challenge goes through the signed retry (the service extends signing).
   */
  readonly signed?: boolean | undefined;
  /** Refused by production platforms. */
  readonly sandboxOnly?: boolean | undefined;
  /** Answers the list envelope. */
  readonly paginated?: boolean | undefined;
  /** A request body must be given. */
  readonly bodyRequired?: boolean | undefined;
  /**
   * The body goes as `multipart/form-data`, not JSON: its binary fields (given as text) and the content
   * type each file part is sent as. Other fields go as text parts. Written by the encoder the row brings (`form`).
   */
  readonly multipart?: { readonly [field: string]: string } | undefined;
  /**
   * @internal The loader of the multipart encoder, on the row of an operation with a `multipart` body: the row
   * brings the encoder, so a bundle without such an operation holds none of it.
   */
  readonly form?: (() => Promise<typeof import('./form')>) | undefined;
  /**
   * @internal Schemas of the path parameters, the query and the body: inline (anything with zod's
   * `safeParse`), or their names in the generated zod module (the sandbox's; the client runs `checks`).
   */
  readonly params?: { readonly path?: SchemaRef | undefined; readonly query?: SchemaRef | undefined; readonly body?: SchemaRef | undefined } | undefined;
  /** @internal Name of the 2xx body schema (the sandbox's and the CLI's; a hand-made operation's `resource`). */
  readonly response?: string | undefined;
  /** A 2xx answer carries a documented JSON body (the resource): one without it is an error. */
  readonly resource?: boolean | undefined;
  /** @internal It has compiled parameter checks, which the `requestChecks` part loads by its id. */
  readonly checked?: boolean | undefined;
}

/** Parameters of one call, split by where they go. */
export interface CallInput {
  path?: Record<string, string> | undefined;
  query?: object | null | undefined;
  body?: unknown;
  /** Operation headers that are parameters (e.g. PASSKEY verify `Request-Id`). */
  header?: Record<string, string> | undefined;
}

/** The statuses whose body is an operation's result. A 202 is when it is not the wallet challenge the signed retry answers (a CSV import's accepted job). */
type ResultStatus = 200 | 201 | 203 | 204 | 205 | 206;
/** The JSON body of one documented answer; `void` for an answer without content (a 204). */
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : void;
/** A 202's body when it is the operation's result, `never` when it is a wallet challenge. */
type Accepted<R> = JsonBody<R> extends { payloadToSign: string } ? never : JsonBody<R>;
type Responses<Id extends OperationId> = OperationTypes[Id]['responses'];

/**
 * What a call of the document's operation `Id` resolves to: the JSON body of its 2xx answers but the
 * 202 challenge, from the generated types (`ResultOf<'createQuote'>` is `Quote`, `ResultOf<'revokeSession'>` is `void`).
 */
export type ResultOf<Id extends OperationId> = {
  [S in keyof Responses<Id>]: S extends ResultStatus ? JsonBody<Responses<Id>[S]> : S extends 202 ? Accepted<Responses<Id>[S]> : never;
}[keyof Responses<Id>];

/** The item of a list operation `Id`: an element of its envelope's `data`. */
export type ItemOf<Id extends OperationId> = ResultOf<Id> extends { data: (infer Item)[] } ? Item : never;

type Parameters_<Id extends OperationId> = OperationTypes[Id]['parameters'];
/** The request body of operation `Id`, as the document gives it. */
type RequestBody<Id extends OperationId> = OperationTypes[Id] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : OperationTypes[Id] extends { requestBody?: { content: { 'multipart/form-data': infer F } } }
    ? F
    : never;

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;
/**
 * A body as the SDK sends it: the document's, where each union of objects (a discriminated set: credential
 * `type`, `accountInfo.accountType`) also takes a variant the document does not list yet, as the public
 * parameter types do (decisions.md "Identifiers, open sets"; the compiled checks check the known ones).
 */
type Open<T> = true extends IsUnion<Extract<T, object>> ? OpenEach<T> | { [field: string]: unknown } : OpenEach<T>;
type OpenEach<T> = T extends readonly (infer E)[] ? Open<E>[] : T extends object ? { [K in keyof T]: Open<T[K]> } : T;
/** A date-time filter of a query takes a `Date` too (sent as its ISO string). */
type DateFilter = 'createdAfter' | 'createdBefore' | 'updatedAfter' | 'updatedBefore' | 'startDate' | 'endDate';
/**
 * The query of operation `Id` (its generated named query type), date-time filters accepting a `Date`
 * as well as an ISO string; `never` for an operation without a query. The public `…ListParams` are these.
 */
export type QueryOf<Id extends OperationId> = Id extends keyof OperationQueries
  ? { [K in keyof OperationQueries[Id]]: K extends DateFilter ? OperationQueries[Id][K] | Date : OperationQueries[Id][K] }
  : never;

/**
 * What a call of the document's operation `Id` takes, from the generated types: its path parameters
 * (required when it has some), its query (date-time filters take a `Date` too) and its body (its open
 * sets take a variant the document does not list yet).
 */
export type InputOf<Id extends OperationId> = (Parameters_<Id>['path'] extends Record<string, unknown>
  ? { path: { [K in keyof Parameters_<Id>['path']]: string } }
  : { path?: undefined }) & {
  query?: ([QueryOf<Id>] extends [never] ? undefined : QueryOf<Id>) | null | undefined;
  body?: ([RequestBody<Id>] extends [never] ? undefined : Open<RequestBody<Id>>) | undefined;
  header?: Record<string, string> | undefined;
};

/** An operation of the document, by its id. */
export type OperationOf<Id extends OperationId> = DocumentOperation<Id>;

type PathSerializer = (url: string, params: Record<string, unknown>) => string;
/** openapi-fetch's `createQuerySerializer()` (made once per client). */
export type QuerySerializer = (query: Record<string, unknown>) => string;

/**
 * Problems of one call's parameters, in the order path, query, body: a fresh array (the caller adds its
 * own), synchronous once the operation's checks are loaded and when they pass.
 */
export type ParamIssues = (
  path: CallInput['path'],
  query: Record<string, unknown> | undefined,
  body: unknown,
) => ValidationIssue[] | Promise<ValidationIssue[]>;

/** The parameters of a core without the `requestChecks` part: nothing is checked locally, not even a required body (the service's 400 says it). */
const unchecked: ParamIssues = () => [];

/** One operation, prepared for a client. */
export class OperationPlan {
  readonly op: Operation;
  /** `POST /quotes`: for errors and logs (the template, never the values). */
  readonly label: string;
  /** Anything but a GET: it may act at the service, so its failures may leave an unknown outcome. */
  readonly write: boolean;
  /** The template with the base address (`https://…/2025-10-13/quotes/{quoteId}`). */
  readonly #template: string;
  /** Builds the URL from the template once split: no regular expression per call; undefined: openapi-fetch's. */
  readonly #pathSerializer: PathSerializer | undefined;
  readonly #querySerializer: QuerySerializer;
  /**
   * Problems of the parameters, in the order path, query, body, from the core's `requestChecks` part (which
   * loads the operation's checks with its first call); none without it.
   */
  readonly paramIssues: ParamIssues;

  constructor(op: Operation, baseUrl: string, querySerializer: QuerySerializer, checks?: RequestChecks) {
    this.op = op;
    this.label = `${op.method} ${op.path}`;
    this.write = op.method !== 'GET';
    this.#template = `${baseUrl}${op.path}`;
    this.#pathSerializer = compilePath(baseUrl, op.path);
    this.#querySerializer = querySerializer;
    this.paramIssues = checks ? checks.checker(op) : unchecked;
  }

  /**
   * The URL of a call, as openapi-fetch's `createFinalURL` makes it: path values filled in (a missing
   * one keeps its placeholder: the wire checks refuse it before), then the query serialized by
   * openapi-fetch (`undefined` and `null` values and empty arrays left out). Throws when a value cannot
   * be encoded (a lone surrogate) or a query value is nested too deep.
   */
  url(path: Record<string, string> | undefined, query: Record<string, unknown> | undefined): string {
    let url = path === undefined ? this.#template : (this.#pathSerializer ?? defaultPathSerializer)(this.#template, path);
    if (query !== undefined) {
      let search = this.#querySerializer(query);
      if (search.startsWith('?')) search = search.slice(1);
      if (search) url += `?${search}`;
    }
    return url;
  }

  /**
   * True when a request may be sent again after it may have arrived, without acting twice: a read, or
   * a write carrying an Idempotency-Key. A signed leg (`requestId` given) never: it goes out once per
   * requestId, repeated only when it surely never left.
   */
  safe(idempotencyKey: string | undefined, requestId: string | undefined): boolean {
    return requestId === undefined && (!this.write || idempotencyKey !== undefined);
  }

  /** Whether a call that failed without an answer leaves its outcome unknown: a write that may have arrived. */
  outcomeUnknown(mayHaveArrived: boolean): boolean {
    return this.write && mayHaveArrived;
  }

  /**
   * Whether a call that failed after an answer with `status` leaves its outcome unknown: a write that
   * failed inside the service (5xx), a 303 (it points at the result of a write the service processed,
   * RFC 9110 §15.4.4), or a 2xx the SDK could not read (the service acted). A refusal (4xx) or another
   * redirect did not act.
   */
  outcomeUnknownAfter(status: number): boolean {
    return this.write && (status >= 500 || status === 303 || (status >= 200 && status < 300));
  }
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
