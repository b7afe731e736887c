/**
 * The package version, sent in `User-Agent` (a test keeps it equal to package.json's), and the API
 * version it speaks: defined once here, for the client, the sandbox and the CLI (a module of two
 * constants, so the sandbox's bundle takes no client code with it).
 * @module
 */
export const VERSION = '0.1.0';

/** The API version this SDK speaks: the path segment after the base address. */
export const API_VERSION = '2025-10-13';
