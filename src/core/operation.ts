/**
 * What an operation is and what a call of it takes and gives: the row of the generated operation table
 * ({@link Operation}) and the types read from the document (`InputOf`, `ResultOf`, `ItemOf`). Types only, in a
 * module that imports no other module of the core but the errors' and the checks' types, so that the plan, the
 * parts and the client all read them without an import circle.
 * @module
 */
import type { DocumentOperation, OperationId } from '../generated/operations';
import type { OperationQueries, operations as OperationTypes } from '../generated/types';
import type { ValidationIssue } from './errors';
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
   * @internal The operation takes no credential (the document's `security: []`): a client without one may call
   * it, and no `Authorization` header is sent.
   */
  readonly anonymous?: boolean | undefined;
  /**
   * @internal The loader of the Strong Customer Authentication check, on the row of a write whose answer can hold a
   * payment (the document's answer has an `scaChallenge` and a `status` that can be `PENDING_AUTHORIZATION`): such an
   * answer is thrown as a `ScaRequiredError`. A bundle without such an operation holds none of it.
   */
  readonly sca?: (() => Promise<typeof import('./sca')>) | undefined;
  /**
   * The loader of the 202 signed retry (`signing`, from `crossborder-sdk/functions`), on the row of every write of
   * the document and on the operations `request()` makes: a 202 wallet challenge is then signed with the call's
   * `signer` (or thrown as a `SignatureRequiredError`), and a relayed `signature` checked as single use and unexpired.
   * A write of your own without it that is answered with a challenge is refused (a `ConfigurationError`) rather
   * than taken for its result. A bundle whose operations only read holds none of it.
   */
  readonly signing?: (() => Promise<unknown>) | undefined;
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

/**
 * The statuses whose body is an operation's result. A 202 is when it is not the wallet challenge the signed retry answers (a CSV import's accepted job).
 * @inline
 */
type ResultStatus = 200 | 201 | 203 | 204 | 205 | 206;
/** The JSON body of one documented answer; `void` for an answer without content (a 204). */
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : void;
/** A 202's body when it is the operation's result, `never` when it is a wallet challenge. */
type Accepted<R> = JsonBody<R> extends { payloadToSign: string } ? never : JsonBody<R>;
/** The documented answers of operation `Id`, by status. */
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
/**
 * A date-time filter of a query takes a `Date` too (sent as its ISO string).
 * @inline
 */
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
export type InputOf<Id extends OperationId> = (OperationTypes[Id]['parameters']['path'] extends Record<string, unknown>
  ? { path: { [K in keyof OperationTypes[Id]['parameters']['path']]: string } }
  : { path?: undefined }) & {
  query?: ([QueryOf<Id>] extends [never] ? undefined : QueryOf<Id>) | null | undefined;
  body?: ([RequestBody<Id>] extends [never] ? undefined : Open<RequestBody<Id>>) | undefined;
  header?: Record<string, string> | undefined;
};

/** An operation of the document, by its id. */
export type OperationOf<Id extends OperationId> = DocumentOperation<Id>;

export type PathSerializer = (url: string, params: Record<string, unknown>) => string;
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
