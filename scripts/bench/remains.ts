/**
 * The closing section of docs/benchmarks.md: which costs remain against the targets and why.
 * Written by hand (it is analysis, not a measurement); the figures it leans on are the tables
 * `npm run bench` writes above it.
 */
export const REMAINS = `## What remains, and why

(Written after the run: see the tables above.)`;
