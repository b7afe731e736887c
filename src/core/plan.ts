/**
 * What a call of one operation needs, worked out once per client and operation: its label, its URL
 * (the template compiled into a path serializer; openapi-fetch's serializers for the rest), its checks
 * (loaded with its first call), and the decisions that follow from its method: whether it is a write,
 * whether a request may be repeated, whether a failed write's outcome is unknown. Every other stage
 * asks the plan; none decides these again. A call then does only what its inputs need.
 * @module
 */
import { serializeArrayParam, serializeObjectParam, serializePrimitiveParam } from 'openapi-fetch';
import type { CallInput, Operation, ParamIssues, PathSerializer, QuerySerializer } from './operation';
import type { RequestChecks } from './part-types';

export type { CallInput, InputOf, ItemOf, Operation, OperationOf, ParamIssues, QueryOf, QuerySerializer, ResultOf } from './operation';

/** The parameters of a core without the `requestChecks` part: nothing is checked locally, not even a required body (the service's 400 says it). */
const unchecked: ParamIssues = () => [];

/** One operation, prepared for a client. */
export class OperationPlan {
  declare readonly op: Operation;
  /** `POST /quotes`: for errors and logs (the template, never the values). */
  declare readonly label: string;
  /** Anything but a GET: it may act at the service, so its failures may leave an unknown outcome. */
  declare readonly write: boolean;
  /** The template with the base address (`https://…/2025-10-13/quotes/{quoteId}`). */
  readonly #template: string;
  /** Builds the URL from the template once split: no regular expression per call; undefined: a template without parameters. */
  readonly #pathSerializer: PathSerializer | undefined;
  readonly #querySerializer: QuerySerializer;
  /**
   * Problems of the parameters, in the order path, query, body, from the core's `requestChecks` part (which
   * loads the operation's checks with its first call); none without it.
   */
  declare readonly paramIssues: ParamIssues;

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
    let url = path === undefined || this.#pathSerializer === undefined ? this.#template : this.#pathSerializer(this.#template, path);
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
 * The URL template, split once, filled as openapi-fetch's `defaultPathSerializer` fills it: each `{name}` with its
 * value encoded, a label `{.name}`, matrix `{;name}` or exploded `{name*}` parameter by openapi-fetch's own value
 * serializers with that style (the ones its default path serializer calls), a missing value keeping its placeholder.
 * Only its reading of the template is done here, once per operation instead of once per call; undefined for a
 * template without parameters.
 */
function compilePath(baseUrl: string, path: string): PathSerializer | undefined {
  // Each parameter in four parts, as openapi-fetch reads it: a leading `.` (label) or `;` (matrix), the name, a
  // trailing `*` (explode); then the text up to the next one.
  const parts = `${baseUrl}${path}`.split(/\{(?=[^{}])([.;]?)([^{}]*?)(\*?)\}/);
  if (parts.length === 1) return undefined;
  return (_url, values) => {
    let url = parts[0]!;
    for (let i = 1; i < parts.length; i += 4) {
      const mark = parts[i]!;
      const name = parts[i + 1]!;
      const value = values[name];
      // A missing value keeps its placeholder, as openapi-fetch does (the wire checks refuse it first).
      url +=
        (value === undefined || value === null
          ? `{${mark}${name}${parts[i + 2]}}`
          : typeof value === 'object'
            ? (Array.isArray(value) ? serializeArrayParam : serializeObjectParam)(name, value as never, {
                style: mark === '.' ? 'label' : mark === ';' ? 'matrix' : 'simple',
                explode: parts[i + 2] === '*',
              })
            : mark === ';'
              ? `;${serializePrimitiveParam(name, value as string)}`
              : mark + encodeURIComponent(value as string)) + parts[i + 3]!;
    }
    return url;
  };
}
