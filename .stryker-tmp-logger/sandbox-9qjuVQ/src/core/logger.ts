/**
 * Logging: levels, a pluggable logger, and redaction of secrets and personal data.
 * Nothing is formatted unless its level is enabled.
 * @module
 */
// @ts-nocheck


/**
 * Any object with these methods: `console`, pino, winston, bunyan. Both argument orders are
 * understood: console's `(message, details)` and pino's / bunyan's `(details, message)` (told apart
 * by the logger's own shape), so the details reach the log either way.
 */function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** `off` logs nothing; each level includes the ones above it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<LogLevel, number> = stryMutAct_9fa48("0") ? {} : (stryCov_9fa48("0"), {
  off: 0,
  error: 1,
  warn: 2,
  info: 3,
  debug: 4
});

/** Headers whose values are never logged. */
const SECRET_HEADERS = new Set(stryMutAct_9fa48("1") ? [] : (stryCov_9fa48("1"), [stryMutAct_9fa48("2") ? "" : (stryCov_9fa48("2"), 'authorization'), stryMutAct_9fa48("3") ? "" : (stryCov_9fa48("3"), 'service-wallet-signature'), stryMutAct_9fa48("4") ? "" : (stryCov_9fa48("4"), 'cookie'), stryMutAct_9fa48("5") ? "" : (stryCov_9fa48("5"), 'set-cookie'), stryMutAct_9fa48("6") ? "" : (stryCov_9fa48("6"), 'proxy-authorization')]));

/**
 * Body fields that carry personal or secret data, masked wherever they appear. A field of this list
 * that holds an object or an array is a personal-data object: every value in it is masked but the
 * short allow-list below ({@link PII_ALLOWED_FIELDS}), whatever its fields are called.
 */
const MASKED_FIELDS = new Set(stryMutAct_9fa48("7") ? [] : (stryCov_9fa48("7"), [// Personal-data objects of the document: account info, beneficiary, identity (KYC/KYB), address.
stryMutAct_9fa48("8") ? "" : (stryCov_9fa48("8"), 'accountInfo'), stryMutAct_9fa48("9") ? "" : (stryCov_9fa48("9"), 'beneficiary'), stryMutAct_9fa48("10") ? "" : (stryCov_9fa48("10"), 'businessInfo'), stryMutAct_9fa48("11") ? "" : (stryCov_9fa48("11"), 'address'), stryMutAct_9fa48("12") ? "" : (stryCov_9fa48("12"), 'senderCustomerInfo'), stryMutAct_9fa48("13") ? "" : (stryCov_9fa48("13"), 'receiverCustomerInfo'), stryMutAct_9fa48("14") ? "" : (stryCov_9fa48("14"), 'counterpartyInformation'), stryMutAct_9fa48("15") ? "" : (stryCov_9fa48("15"), 'beneficiaryVerifiedData'), stryMutAct_9fa48("16") ? "" : (stryCov_9fa48("16"), 'identity'), stryMutAct_9fa48("17") ? "" : (stryCov_9fa48("17"), 'kyc'), // Personal data.
stryMutAct_9fa48("18") ? "" : (stryCov_9fa48("18"), 'fullName'), stryMutAct_9fa48("19") ? "" : (stryCov_9fa48("19"), 'firstName'), stryMutAct_9fa48("20") ? "" : (stryCov_9fa48("20"), 'lastName'), stryMutAct_9fa48("21") ? "" : (stryCov_9fa48("21"), 'legalName'), stryMutAct_9fa48("22") ? "" : (stryCov_9fa48("22"), 'doingBusinessAs'), stryMutAct_9fa48("23") ? "" : (stryCov_9fa48("23"), 'nickname'), stryMutAct_9fa48("24") ? "" : (stryCov_9fa48("24"), 'birthDate'), stryMutAct_9fa48("25") ? "" : (stryCov_9fa48("25"), 'nationality'), stryMutAct_9fa48("26") ? "" : (stryCov_9fa48("26"), 'countryOfResidence'), stryMutAct_9fa48("27") ? "" : (stryCov_9fa48("27"), 'line1'), stryMutAct_9fa48("28") ? "" : (stryCov_9fa48("28"), 'line2'), stryMutAct_9fa48("29") ? "" : (stryCov_9fa48("29"), 'city'), stryMutAct_9fa48("30") ? "" : (stryCov_9fa48("30"), 'postalCode'), stryMutAct_9fa48("31") ? "" : (stryCov_9fa48("31"), 'taxId'), stryMutAct_9fa48("32") ? "" : (stryCov_9fa48("32"), 'registrationNumber'), stryMutAct_9fa48("33") ? "" : (stryCov_9fa48("33"), 'accountNumber'), stryMutAct_9fa48("34") ? "" : (stryCov_9fa48("34"), 'routingNumber'), stryMutAct_9fa48("35") ? "" : (stryCov_9fa48("35"), 'iban'), stryMutAct_9fa48("36") ? "" : (stryCov_9fa48("36"), 'bic'), stryMutAct_9fa48("37") ? "" : (stryCov_9fa48("37"), 'swiftCode'), stryMutAct_9fa48("38") ? "" : (stryCov_9fa48("38"), 'pixKey'), stryMutAct_9fa48("39") ? "" : (stryCov_9fa48("39"), 'email'), stryMutAct_9fa48("40") ? "" : (stryCov_9fa48("40"), 'phoneNumber'), stryMutAct_9fa48("41") ? "" : (stryCov_9fa48("41"), 'umaAddress'), stryMutAct_9fa48("42") ? "" : (stryCov_9fa48("42"), 'inviterUma'), stryMutAct_9fa48("43") ? "" : (stryCov_9fa48("43"), 'inviteeUma'), stryMutAct_9fa48("44") ? "" : (stryCov_9fa48("44"), 'receiverUmaAddress'), stryMutAct_9fa48("45") ? "" : (stryCov_9fa48("45"), 'senderUmaAddress'), stryMutAct_9fa48("46") ? "" : (stryCov_9fa48("46"), 'toUmaAddress'), // Secrets.
stryMutAct_9fa48("47") ? "" : (stryCov_9fa48("47"), 'otp'), stryMutAct_9fa48("48") ? "" : (stryCov_9fa48("48"), 'oidcToken'), stryMutAct_9fa48("49") ? "" : (stryCov_9fa48("49"), 'clientPublicKey'), stryMutAct_9fa48("50") ? "" : (stryCov_9fa48("50"), 'encryptedSessionSigningKey'), stryMutAct_9fa48("51") ? "" : (stryCov_9fa48("51"), 'encryptedWalletCredentials'), stryMutAct_9fa48("52") ? "" : (stryCov_9fa48("52"), 'privateKey'), stryMutAct_9fa48("53") ? "" : (stryCov_9fa48("53"), 'sessionKey'), stryMutAct_9fa48("54") ? "" : (stryCov_9fa48("54"), 'payloadToSign'), stryMutAct_9fa48("55") ? "" : (stryCov_9fa48("55"), 'signature'), stryMutAct_9fa48("56") ? "" : (stryCov_9fa48("56"), 'attestation'), stryMutAct_9fa48("57") ? "" : (stryCov_9fa48("57"), 'assertion')]));

/**
 * Fields of an object that are a personal-data object by their presence: an account of any kind
 * (`accountType`, the open union: `EUR_ACCOUNT` with an `iban` as much as `USD_ACCOUNT`), a customer
 * (`customerType`), a beneficiary (`beneficiaryType`).
 */
const PII_MARKERS = stryMutAct_9fa48("58") ? [] : (stryCov_9fa48("58"), [stryMutAct_9fa48("59") ? "" : (stryCov_9fa48("59"), 'accountType'), stryMutAct_9fa48("60") ? "" : (stryCov_9fa48("60"), 'customerType'), stryMutAct_9fa48("61") ? "" : (stryCov_9fa48("61"), 'beneficiaryType')]);

/** Service ids (`Customer:123`), upper-case codes and statuses (`USD`, `EUR_ACCOUNT`, `APPROVED`). */
const ID_VALUE = stryMutAct_9fa48("67") ? /^[A-Za-z]{1,40}:[^A-Za-z0-9._-]{1,80}$/ : stryMutAct_9fa48("66") ? /^[A-Za-z]{1,40}:[A-Za-z0-9._-]$/ : stryMutAct_9fa48("65") ? /^[^A-Za-z]{1,40}:[A-Za-z0-9._-]{1,80}$/ : stryMutAct_9fa48("64") ? /^[A-Za-z]:[A-Za-z0-9._-]{1,80}$/ : stryMutAct_9fa48("63") ? /^[A-Za-z]{1,40}:[A-Za-z0-9._-]{1,80}/ : stryMutAct_9fa48("62") ? /[A-Za-z]{1,40}:[A-Za-z0-9._-]{1,80}$/ : (stryCov_9fa48("62", "63", "64", "65", "66", "67"), /^[A-Za-z]{1,40}:[A-Za-z0-9._-]{1,80}$/);
const CODE_VALUE = stryMutAct_9fa48("72") ? /^[A-Z][^A-Z_]{0,39}$/ : stryMutAct_9fa48("71") ? /^[A-Z][A-Z_]$/ : stryMutAct_9fa48("70") ? /^[^A-Z][A-Z_]{0,39}$/ : stryMutAct_9fa48("69") ? /^[A-Z][A-Z_]{0,39}/ : stryMutAct_9fa48("68") ? /[A-Z][A-Z_]{0,39}$/ : (stryCov_9fa48("68", "69", "70", "71", "72"), /^[A-Z][A-Z_]{0,39}$/);

/**
 * What stays readable inside a personal-data object: ids, types, currency codes and statuses, and
 * only when the value has that form (a free text under `status` is masked too).
 */
export const PII_ALLOWED_FIELDS: ReadonlyMap<string, RegExp> = new Map(stryMutAct_9fa48("73") ? [] : (stryCov_9fa48("73"), [stryMutAct_9fa48("74") ? [] : (stryCov_9fa48("74"), [stryMutAct_9fa48("75") ? "" : (stryCov_9fa48("75"), 'id'), ID_VALUE]), stryMutAct_9fa48("76") ? [] : (stryCov_9fa48("76"), [stryMutAct_9fa48("77") ? "" : (stryCov_9fa48("77"), 'customerId'), ID_VALUE]), stryMutAct_9fa48("78") ? [] : (stryCov_9fa48("78"), [stryMutAct_9fa48("79") ? "" : (stryCov_9fa48("79"), 'accountId'), ID_VALUE]), stryMutAct_9fa48("80") ? [] : (stryCov_9fa48("80"), [stryMutAct_9fa48("81") ? "" : (stryCov_9fa48("81"), 'accountType'), CODE_VALUE]), stryMutAct_9fa48("82") ? [] : (stryCov_9fa48("82"), [stryMutAct_9fa48("83") ? "" : (stryCov_9fa48("83"), 'beneficiaryType'), CODE_VALUE]), stryMutAct_9fa48("84") ? [] : (stryCov_9fa48("84"), [stryMutAct_9fa48("85") ? "" : (stryCov_9fa48("85"), 'customerType'), CODE_VALUE]), stryMutAct_9fa48("86") ? [] : (stryCov_9fa48("86"), [stryMutAct_9fa48("87") ? "" : (stryCov_9fa48("87"), 'pixKeyType'), CODE_VALUE]), stryMutAct_9fa48("88") ? [] : (stryCov_9fa48("88"), [stryMutAct_9fa48("89") ? "" : (stryCov_9fa48("89"), 'accountCategory'), CODE_VALUE]), stryMutAct_9fa48("90") ? [] : (stryCov_9fa48("90"), [stryMutAct_9fa48("91") ? "" : (stryCov_9fa48("91"), 'assetType'), CODE_VALUE]), stryMutAct_9fa48("92") ? [] : (stryCov_9fa48("92"), [stryMutAct_9fa48("93") ? "" : (stryCov_9fa48("93"), 'currency'), CODE_VALUE]), stryMutAct_9fa48("94") ? [] : (stryCov_9fa48("94"), [stryMutAct_9fa48("95") ? "" : (stryCov_9fa48("95"), 'currencies'), CODE_VALUE]), stryMutAct_9fa48("96") ? [] : (stryCov_9fa48("96"), [stryMutAct_9fa48("97") ? "" : (stryCov_9fa48("97"), 'status'), CODE_VALUE]), stryMutAct_9fa48("98") ? [] : (stryCov_9fa48("98"), [stryMutAct_9fa48("99") ? "" : (stryCov_9fa48("99"), 'kycStatus'), CODE_VALUE]), stryMutAct_9fa48("100") ? [] : (stryCov_9fa48("100"), [stryMutAct_9fa48("101") ? "" : (stryCov_9fa48("101"), 'beneficiaryVerificationStatus'), CODE_VALUE])]));

/** Objects nested deeper than this are replaced whole by the mask. */
const MAX_DEPTH = 32;
const MASK = stryMutAct_9fa48("102") ? "" : (stryCov_9fa48("102"), '[redacted]');
type Level = Exclude<LogLevel, 'off'>;

/** True for loggers that take `(details, message)`: pino (`levels.values`) and bunyan (`streams`). */
function objectFirst(logger: Logger): boolean {
  if (stryMutAct_9fa48("103")) {
    {}
  } else {
    stryCov_9fa48("103");
    const l = logger as unknown as {
      levels?: {
        values?: unknown;
      };
      streams?: unknown;
    };
    return stryMutAct_9fa48("106") ? typeof l.levels === 'object' && l.levels !== null && typeof l.levels.values === 'object' && l.levels.values !== null && Array.isArray(l.streams) : stryMutAct_9fa48("105") ? false : stryMutAct_9fa48("104") ? true : (stryCov_9fa48("104", "105", "106"), (stryMutAct_9fa48("108") ? typeof l.levels === 'object' && l.levels !== null && typeof l.levels.values === 'object' || l.levels.values !== null : stryMutAct_9fa48("107") ? false : (stryCov_9fa48("107", "108"), (stryMutAct_9fa48("110") ? typeof l.levels === 'object' && l.levels !== null || typeof l.levels.values === 'object' : stryMutAct_9fa48("109") ? true : (stryCov_9fa48("109", "110"), (stryMutAct_9fa48("112") ? typeof l.levels === 'object' || l.levels !== null : stryMutAct_9fa48("111") ? true : (stryCov_9fa48("111", "112"), (stryMutAct_9fa48("114") ? typeof l.levels !== 'object' : stryMutAct_9fa48("113") ? true : (stryCov_9fa48("113", "114"), typeof l.levels === (stryMutAct_9fa48("115") ? "" : (stryCov_9fa48("115"), 'object')))) && (stryMutAct_9fa48("117") ? l.levels === null : stryMutAct_9fa48("116") ? true : (stryCov_9fa48("116", "117"), l.levels !== null)))) && (stryMutAct_9fa48("119") ? typeof l.levels.values !== 'object' : stryMutAct_9fa48("118") ? true : (stryCov_9fa48("118", "119"), typeof l.levels.values === (stryMutAct_9fa48("120") ? "" : (stryCov_9fa48("120"), 'object')))))) && (stryMutAct_9fa48("122") ? l.levels.values === null : stryMutAct_9fa48("121") ? true : (stryCov_9fa48("121", "122"), l.levels.values !== null)))) || Array.isArray(l.streams));
  }
}

/** Level and logger from the options, else from `CROSSBORDER_LOG` (which logs to the console). */
export function logFromOptions(logger: Logger | undefined, level: LogLevel | undefined, envLevel: string | undefined): Log {
  if (stryMutAct_9fa48("123")) {
    {}
  } else {
    stryCov_9fa48("123");
    const fromEnv = (stryMutAct_9fa48("126") ? envLevel !== undefined || Object.hasOwn(RANK, envLevel) : stryMutAct_9fa48("125") ? false : stryMutAct_9fa48("124") ? true : (stryCov_9fa48("124", "125", "126"), (stryMutAct_9fa48("128") ? envLevel === undefined : stryMutAct_9fa48("127") ? true : (stryCov_9fa48("127", "128"), envLevel !== undefined)) && Object.hasOwn(RANK, envLevel))) ? envLevel as LogLevel : undefined;
    const chosen = stryMutAct_9fa48("129") ? logger && (fromEnv && fromEnv !== 'off' ? console as Logger : undefined) : (stryCov_9fa48("129"), logger ?? ((stryMutAct_9fa48("132") ? fromEnv || fromEnv !== 'off' : stryMutAct_9fa48("131") ? false : stryMutAct_9fa48("130") ? true : (stryCov_9fa48("130", "131", "132"), fromEnv && (stryMutAct_9fa48("134") ? fromEnv === 'off' : stryMutAct_9fa48("133") ? true : (stryCov_9fa48("133", "134"), fromEnv !== (stryMutAct_9fa48("135") ? "" : (stryCov_9fa48("135"), 'off')))))) ? console as Logger : undefined));
    return new Log(chosen, stryMutAct_9fa48("136") ? (level ?? fromEnv) && 'warn' : (stryCov_9fa48("136"), (stryMutAct_9fa48("137") ? level && fromEnv : (stryCov_9fa48("137"), level ?? fromEnv)) ?? (stryMutAct_9fa48("138") ? "" : (stryCov_9fa48("138"), 'warn'))));
  }
}

/**
 * The level gate plus the logger: built once per client. Logging never changes a result: a logger
 * that throws is ignored.
 */
export class Log {
  private readonly rank: number;
  private readonly objectFirst: boolean;
  constructor(private readonly logger: Logger | undefined, level: LogLevel) {
    if (stryMutAct_9fa48("139")) {
      {}
    } else {
      stryCov_9fa48("139");
      this.rank = logger ? stryMutAct_9fa48("140") ? RANK[level] && RANK.warn : (stryCov_9fa48("140"), RANK[level] ?? RANK.warn) : 0;
      this.objectFirst = logger ? objectFirst(logger) : stryMutAct_9fa48("141") ? true : (stryCov_9fa48("141"), false);
    }
  }
  /** True when messages of this level are written: check before building details. */
  enabled(level: Level): boolean {
    if (stryMutAct_9fa48("142")) {
      {}
    } else {
      stryCov_9fa48("142");
      return stryMutAct_9fa48("146") ? this.rank < RANK[level] : stryMutAct_9fa48("145") ? this.rank > RANK[level] : stryMutAct_9fa48("144") ? false : stryMutAct_9fa48("143") ? true : (stryCov_9fa48("143", "144", "145", "146"), this.rank >= RANK[level]);
    }
  }
  private write(level: Level, message: string, details?: () => Record<string, unknown>): void {
    if (stryMutAct_9fa48("147")) {
      {}
    } else {
      stryCov_9fa48("147");
      if (stryMutAct_9fa48("151") ? this.rank >= RANK[level] : stryMutAct_9fa48("150") ? this.rank <= RANK[level] : stryMutAct_9fa48("149") ? false : stryMutAct_9fa48("148") ? true : (stryCov_9fa48("148", "149", "150", "151"), this.rank < RANK[level])) return;
      try {
        if (stryMutAct_9fa48("152")) {
          {}
        } else {
          stryCov_9fa48("152");
          const fields = stryMutAct_9fa48("153") ? details() : (stryCov_9fa48("153"), details?.());
          const logger = this.logger!;
          if (stryMutAct_9fa48("156") ? fields !== undefined : stryMutAct_9fa48("155") ? false : stryMutAct_9fa48("154") ? true : (stryCov_9fa48("154", "155", "156"), fields === undefined)) ignoreRejection(logger[level](message));else if (stryMutAct_9fa48("158") ? false : stryMutAct_9fa48("157") ? true : (stryCov_9fa48("157", "158"), this.objectFirst)) ignoreRejection((logger[level] as unknown as (obj: object, msg: string) => unknown)(fields, message));else ignoreRejection(logger[level](message, fields));
        }
      } catch {
        // A broken logger must not turn a call that succeeded into a failure.
      }
    }
  }
  debug(message: string, details?: () => Record<string, unknown>): void {
    if (stryMutAct_9fa48("159")) {
      {}
    } else {
      stryCov_9fa48("159");
      this.write(stryMutAct_9fa48("160") ? "" : (stryCov_9fa48("160"), 'debug'), message, details);
    }
  }
  info(message: string, details?: () => Record<string, unknown>): void {
    if (stryMutAct_9fa48("161")) {
      {}
    } else {
      stryCov_9fa48("161");
      this.write(stryMutAct_9fa48("162") ? "" : (stryCov_9fa48("162"), 'info'), message, details);
    }
  }
  warn(message: string, details?: () => Record<string, unknown>): void {
    if (stryMutAct_9fa48("163")) {
      {}
    } else {
      stryCov_9fa48("163");
      this.write(stryMutAct_9fa48("164") ? "" : (stryCov_9fa48("164"), 'warn'), message, details);
    }
  }
  error(message: string, details?: () => Record<string, unknown>): void {
    if (stryMutAct_9fa48("165")) {
      {}
    } else {
      stryCov_9fa48("165");
      this.write(stryMutAct_9fa48("166") ? "" : (stryCov_9fa48("166"), 'error'), message, details);
    }
  }
}

/**
 * A user's callback (logger method, validation hook) may be async: its rejection is dropped here,
 * since an unhandled rejection can end the process, and a broken logger must never change a result.
 */
export function ignoreRejection(result: unknown): void {
  if (stryMutAct_9fa48("167")) {
    {}
  } else {
    stryCov_9fa48("167");
    if (stryMutAct_9fa48("170") ? result !== null && typeof result === 'object' || typeof (result as PromiseLike<unknown>).then === 'function' : stryMutAct_9fa48("169") ? false : stryMutAct_9fa48("168") ? true : (stryCov_9fa48("168", "169", "170"), (stryMutAct_9fa48("172") ? result !== null || typeof result === 'object' : stryMutAct_9fa48("171") ? true : (stryCov_9fa48("171", "172"), (stryMutAct_9fa48("174") ? result === null : stryMutAct_9fa48("173") ? true : (stryCov_9fa48("173", "174"), result !== null)) && (stryMutAct_9fa48("176") ? typeof result !== 'object' : stryMutAct_9fa48("175") ? true : (stryCov_9fa48("175", "176"), typeof result === (stryMutAct_9fa48("177") ? "" : (stryCov_9fa48("177"), 'object')))))) && (stryMutAct_9fa48("179") ? typeof (result as PromiseLike<unknown>).then !== 'function' : stryMutAct_9fa48("178") ? true : (stryCov_9fa48("178", "179"), typeof (result as PromiseLike<unknown>).then === (stryMutAct_9fa48("180") ? "" : (stryCov_9fa48("180"), 'function')))))) {
      if (stryMutAct_9fa48("181")) {
        {}
      } else {
        stryCov_9fa48("181");
        (result as PromiseLike<unknown>).then(undefined, () => undefined);
      }
    }
  }
}

/** Copy of the headers with secret values replaced. */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  if (stryMutAct_9fa48("182")) {
    {}
  } else {
    stryCov_9fa48("182");
    const out: Record<string, string> = {};
    const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
    for (const [name, value] of entries) {
      if (stryMutAct_9fa48("183")) {
        {}
      } else {
        stryCov_9fa48("183");
        const key = stryMutAct_9fa48("184") ? name.toUpperCase() : (stryCov_9fa48("184"), name.toLowerCase());
        out[key] = SECRET_HEADERS.has(key) ? MASK : value;
      }
    }
    return out;
  }
}

/**
 * Copy of a JSON value with personal and secret data masked, at any depth: the fields named above,
 * and inside a personal-data object (one of those fields holding an object, or an object with an
 * `accountType`, `customerType` or `beneficiaryType`) every value but the allow-list. Past
 * {@link MAX_DEPTH} levels everything is masked. Safe to ship to a log aggregator.
 */
export function maskBody(value: unknown, depth = 0, inPii = stryMutAct_9fa48("185") ? true : (stryCov_9fa48("185"), false)): unknown {
  if (stryMutAct_9fa48("186")) {
    {}
  } else {
    stryCov_9fa48("186");
    if (stryMutAct_9fa48("190") ? depth <= MAX_DEPTH : stryMutAct_9fa48("189") ? depth >= MAX_DEPTH : stryMutAct_9fa48("188") ? false : stryMutAct_9fa48("187") ? true : (stryCov_9fa48("187", "188", "189", "190"), depth > MAX_DEPTH)) return MASK;
    if (stryMutAct_9fa48("193") ? value === null && value === undefined : stryMutAct_9fa48("192") ? false : stryMutAct_9fa48("191") ? true : (stryCov_9fa48("191", "192", "193"), (stryMutAct_9fa48("195") ? value !== null : stryMutAct_9fa48("194") ? false : (stryCov_9fa48("194", "195"), value === null)) || (stryMutAct_9fa48("197") ? value !== undefined : stryMutAct_9fa48("196") ? false : (stryCov_9fa48("196", "197"), value === undefined)))) return value;
    if (stryMutAct_9fa48("200") ? typeof value === 'object' : stryMutAct_9fa48("199") ? false : stryMutAct_9fa48("198") ? true : (stryCov_9fa48("198", "199", "200"), typeof value !== (stryMutAct_9fa48("201") ? "" : (stryCov_9fa48("201"), 'object')))) return inPii ? MASK : value;
    if (stryMutAct_9fa48("203") ? false : stryMutAct_9fa48("202") ? true : (stryCov_9fa48("202", "203"), Array.isArray(value))) return value.map(stryMutAct_9fa48("204") ? () => undefined : (stryCov_9fa48("204"), v => maskBody(v, stryMutAct_9fa48("205") ? depth - 1 : (stryCov_9fa48("205"), depth + 1), inPii)));
    const record = value as Record<string, unknown>;
    const pii = stryMutAct_9fa48("208") ? inPii && PII_MARKERS.some(marker => typeof record[marker] === 'string') : stryMutAct_9fa48("207") ? false : stryMutAct_9fa48("206") ? true : (stryCov_9fa48("206", "207", "208"), inPii || (stryMutAct_9fa48("209") ? PII_MARKERS.every(marker => typeof record[marker] === 'string') : (stryCov_9fa48("209"), PII_MARKERS.some(stryMutAct_9fa48("210") ? () => undefined : (stryCov_9fa48("210"), marker => stryMutAct_9fa48("213") ? typeof record[marker] !== 'string' : stryMutAct_9fa48("212") ? false : stryMutAct_9fa48("211") ? true : (stryCov_9fa48("211", "212", "213"), typeof record[marker] === (stryMutAct_9fa48("214") ? "" : (stryCov_9fa48("214"), 'string'))))))));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) {
      if (stryMutAct_9fa48("215")) {
        {}
      } else {
        stryCov_9fa48("215");
        const named = MASKED_FIELDS.has(k);
        // An allow-listed value is a string or a list of strings: nothing below it to mask.
        if (stryMutAct_9fa48("218") ? pii && !named && depth < MAX_DEPTH || allowed(k, v) : stryMutAct_9fa48("217") ? false : stryMutAct_9fa48("216") ? true : (stryCov_9fa48("216", "217", "218"), (stryMutAct_9fa48("220") ? pii && !named || depth < MAX_DEPTH : stryMutAct_9fa48("219") ? true : (stryCov_9fa48("219", "220"), (stryMutAct_9fa48("222") ? pii || !named : stryMutAct_9fa48("221") ? true : (stryCov_9fa48("221", "222"), pii && (stryMutAct_9fa48("223") ? named : (stryCov_9fa48("223"), !named)))) && (stryMutAct_9fa48("226") ? depth >= MAX_DEPTH : stryMutAct_9fa48("225") ? depth <= MAX_DEPTH : stryMutAct_9fa48("224") ? true : (stryCov_9fa48("224", "225", "226"), depth < MAX_DEPTH)))) && allowed(k, v))) out[k] = Array.isArray(v) ? stryMutAct_9fa48("227") ? [] : (stryCov_9fa48("227"), [...(v as unknown[])]) : v;else out[k] = maskBody(v, stryMutAct_9fa48("228") ? depth - 1 : (stryCov_9fa48("228"), depth + 1), stryMutAct_9fa48("231") ? pii && named : stryMutAct_9fa48("230") ? false : stryMutAct_9fa48("229") ? true : (stryCov_9fa48("229", "230", "231"), pii || named));
      }
    }
    return out;
  }
}

/** True for an allow-listed field whose value has the allowed form (a string, or strings). */
function allowed(field: string, value: unknown): boolean {
  if (stryMutAct_9fa48("232")) {
    {}
  } else {
    stryCov_9fa48("232");
    const form = PII_ALLOWED_FIELDS.get(field);
    if (stryMutAct_9fa48("235") ? form !== undefined : stryMutAct_9fa48("234") ? false : stryMutAct_9fa48("233") ? true : (stryCov_9fa48("233", "234", "235"), form === undefined)) return stryMutAct_9fa48("236") ? true : (stryCov_9fa48("236"), false);
    if (stryMutAct_9fa48("239") ? typeof value !== 'string' : stryMutAct_9fa48("238") ? false : stryMutAct_9fa48("237") ? true : (stryCov_9fa48("237", "238", "239"), typeof value === (stryMutAct_9fa48("240") ? "" : (stryCov_9fa48("240"), 'string')))) return form.test(value);
    return stryMutAct_9fa48("243") ? Array.isArray(value) && value.length <= 64 || value.every(v => typeof v === 'string' && form.test(v)) : stryMutAct_9fa48("242") ? false : stryMutAct_9fa48("241") ? true : (stryCov_9fa48("241", "242", "243"), (stryMutAct_9fa48("245") ? Array.isArray(value) || value.length <= 64 : stryMutAct_9fa48("244") ? true : (stryCov_9fa48("244", "245"), Array.isArray(value) && (stryMutAct_9fa48("248") ? value.length > 64 : stryMutAct_9fa48("247") ? value.length < 64 : stryMutAct_9fa48("246") ? true : (stryCov_9fa48("246", "247", "248"), value.length <= 64)))) && (stryMutAct_9fa48("249") ? value.some(v => typeof v === 'string' && form.test(v)) : (stryCov_9fa48("249"), value.every(stryMutAct_9fa48("250") ? () => undefined : (stryCov_9fa48("250"), v => stryMutAct_9fa48("253") ? typeof v === 'string' || form.test(v) : stryMutAct_9fa48("252") ? false : stryMutAct_9fa48("251") ? true : (stryCov_9fa48("251", "252", "253"), (stryMutAct_9fa48("255") ? typeof v !== 'string' : stryMutAct_9fa48("254") ? true : (stryCov_9fa48("254", "255"), typeof v === (stryMutAct_9fa48("256") ? "" : (stryCov_9fa48("256"), 'string')))) && form.test(v)))))));
  }
}

/** Parses a logged body text and masks it; a body that is not JSON is summarised, not shown. */
export function maskBodyText(text: string | undefined): unknown {
  if (stryMutAct_9fa48("257")) {
    {}
  } else {
    stryCov_9fa48("257");
    if (stryMutAct_9fa48("260") ? text === undefined && text === '' : stryMutAct_9fa48("259") ? false : stryMutAct_9fa48("258") ? true : (stryCov_9fa48("258", "259", "260"), (stryMutAct_9fa48("262") ? text !== undefined : stryMutAct_9fa48("261") ? false : (stryCov_9fa48("261", "262"), text === undefined)) || (stryMutAct_9fa48("264") ? text !== '' : stryMutAct_9fa48("263") ? false : (stryCov_9fa48("263", "264"), text === (stryMutAct_9fa48("265") ? "Stryker was here!" : (stryCov_9fa48("265"), '')))))) return undefined;
    try {
      if (stryMutAct_9fa48("266")) {
        {}
      } else {
        stryCov_9fa48("266");
        return maskBody(JSON.parse(text));
      }
    } catch {
      if (stryMutAct_9fa48("267")) {
        {}
      } else {
        stryCov_9fa48("267");
        return stryMutAct_9fa48("268") ? `` : (stryCov_9fa48("268"), `[${text.length} bytes, not JSON]`);
      }
    }
  }
}