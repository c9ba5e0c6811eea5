/**
 * The last resort of `catalog compile` (issue 21): an exception nothing could catch ends the process
 * with one `catalog:` line and a documented exit code, never a stack trace and exit 1. The real thing
 * (undici's assertion thrown from a socket event during a compile) is in test/e2e/compile-http.test.ts.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { errors } from 'undici';
import { CatalogError } from '../../snapshots/errors.js';
import { exitOnUncaught, uncaughtError, type ProcessLike } from '../../cli/uncaught.js';

/** The error of issue 21 as Node printed it: an assertion thrown in undici's HTTP/1 parser. */
function undiciAssertion(): Error {
  const err = Object.assign(new Error('The expression evaluated to a falsy value:\n\n  assert(!this.paused)\n'), { code: 'ERR_ASSERTION' });
  err.stack = [
    `AssertionError [ERR_ASSERTION]: ${err.message}`,
    '    at Parser.finish (/srv/catalog/node_modules/undici/lib/dispatcher/client-h1.js:375:5)',
    '    at Socket.onHttpSocketEnd (/srv/catalog/node_modules/undici/lib/dispatcher/client-h1.js:958:30)',
    '    at Socket.emit (node:events:536:35)',
  ].join('\n');
  return err;
}

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const target: ProcessLike = {
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
    exit: (code) => void exits.push(code),
  };
  return { emitter, exits, target };
}

describe('an uncaught exception during a command', () => {
  it('when it was thrown inside undici then it is a source failure (exit 69) naming the first frame, without the stack', () => {
    const e = uncaughtError(undiciAssertion());
    expect(e.code).toBe('source_unreachable');
    expect(e.exitCode).toBe(69);
    expect(e.message).toBe(
      'the HTTP source failed inside the HTTP client (undici): ERR_ASSERTION: The expression evaluated to a falsy value: ' +
        '(at Parser.finish (/srv/catalog/node_modules/undici/lib/dispatcher/client-h1.js:375:5))',
    );
    expect(e.message).not.toContain('\n');
  });

  it('when it is one of undici\'s own errors then it is a source failure too', () => {
    const e = uncaughtError(new errors.SocketError('other side closed'));
    expect(e.exitCode).toBe(69);
    expect(e.message).toMatch(/^the HTTP source failed inside the HTTP client \(undici\): UND_ERR_SOCKET: other side closed/);
  });

  it('when it is a CatalogError or an actionable system error then it keeps its own code', () => {
    const own = new CatalogError('invalid_source', 'bad line');
    expect(uncaughtError(own)).toBe(own);
    const full = uncaughtError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/srv/x' }));
    expect([full.code, full.exitCode]).toEqual(['io', 74]);
  });

  it('when it is anything else then it is internal (exit 70), also for a thrown non-Error', () => {
    const e = uncaughtError(new TypeError('x is not a function'));
    expect([e.code, e.exitCode]).toEqual(['internal', 70]);
    expect(e.message).toMatch(/^unexpected failure: x is not a function \(at .*uncaught\.test\.ts:\d+:\d+\)$/);
    expect(uncaughtError('a string').message).toBe('unexpected failure: a string');
  });

  it('when the guard is on then an uncaught exception writes one catalog: line and exits with its code; when released it does nothing', () => {
    const { emitter, exits, target } = fakeProcess();
    let out = '';
    const order: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => { order.push('write'); out += s; return true; } }, env: {} };
    const release = exitOnUncaught(target, io, () => order.push('progress line ended'));
    emitter.emit('uncaughtException', undiciAssertion());
    expect(exits).toEqual([69]);
    expect(out).toMatch(/^catalog: the HTTP source failed inside the HTTP client \(undici\): ERR_ASSERTION: [^\n]*\n$/);
    expect(order).toEqual(['progress line ended', 'write']);
    release();
    expect(emitter.listenerCount('uncaughtException')).toBe(0);
  });
});
