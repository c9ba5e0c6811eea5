#!/usr/bin/env node
// Prints the number of audit rows in a proxy state file (SQLite), read-only. Used by
// scripts/bench-proxy.sh when the sqlite3 command is not installed; better-sqlite3 is already a
// dependency of the proxy, so this needs nothing new.
//
//   node scripts/bench-proxy/audit-count.mjs <state file>
import Database from 'better-sqlite3';
import { argumentsOrUsage } from '../lib/arguments.mjs';

const [file] = argumentsOrUsage('node scripts/bench-proxy/audit-count.mjs <state file>');
const db = new Database(file, { readonly: true, fileMustExist: true });
try {
  process.stdout.write(`${db.prepare('SELECT count(*) AS n FROM audit_log').get().n}\n`);
} finally {
  db.close();
}
