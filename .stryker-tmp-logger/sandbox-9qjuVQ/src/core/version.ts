/**
 * The package version, sent in `User-Agent`. A test keeps it equal to package.json's.
 * @module
 */
// @ts-nocheck

export const VERSION = '0.1.0';
