#!/usr/bin/env node
// Runs the built command line, building first only when the checkout was never built or changed since.
import { buildIfStale } from './build-if-stale.js';

buildIfStale();
await import('../dist/src/cli/main.js');
