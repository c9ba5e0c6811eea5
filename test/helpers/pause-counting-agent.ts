/**
 * An undici Agent that counts how often a handler asked it to pause: `controller.pause()` (the
 * handler API of undici 7) or `onData` returning false (the older one that `request()` uses). A
 * paused parser is what crashes the process when a server closes the connection (issue 21;
 * snapshots/http/get-to-file.ts), so downloads are tested to never ask.
 */
import { Agent, type Dispatcher } from 'undici';

export function pauseCountingAgent(): { agent: Dispatcher; pauses: () => number } {
  let pauses = 0;
  const base = new Agent({ connections: 4 });
  const agent = base.compose((dispatch) => (opts, handler) => {
    const h = handler as Dispatcher.DispatchHandler;
    const counted: Dispatcher.DispatchHandler = {
      ...bind(h),
      onRequestStart: h.onRequestStart && ((controller, context) => {
        const pause = controller.pause.bind(controller);
        controller.pause = () => {
          pauses += 1;
          pause();
        };
        h.onRequestStart!(controller, context);
      }),
      onData: h.onData && ((chunk) => {
        const more = h.onData!(chunk);
        if (more === false) pauses += 1;
        return more;
      }),
    };
    return dispatch(opts, counted);
  });
  return { agent, pauses: () => pauses };
}

/** The handler's own methods, bound, so a copy can replace a few of them. */
function bind(h: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
  const out: Record<string, unknown> = {};
  for (let o: object | null = h; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      const value = (h as Record<string, unknown>)[key];
      if (key !== 'constructor' && key.startsWith('on') && typeof value === 'function' && !(key in out)) out[key] = value.bind(h);
    }
  }
  return out as Dispatcher.DispatchHandler;
}
