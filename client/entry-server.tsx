/**
 * The app's server side: runs the route loaders through React Router's static handler and
 * renders the matched page as a React stream. The server shell (server/render) owns HTTP.
 */
import { StrictMode } from 'react';
import { renderToPipeableStream, type PipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, isRouteErrorResponse, RouterContextProvider, StaticRouterProvider } from 'react-router';
import type { ContentApi } from '../shared/content-api.js';
import { serializeForScript } from '../shared/escape-json.js';
import { createRoutes, ROUTER_DATA_ID } from './app-routes.js';
import { contentApiContext } from './router-context.js';
import { FirstScreen } from './components/content-image.js';
import type { RouteHandle } from './route-handle.js';
import { MeasurerContext } from './placeholders/measurer.js';
import { serverMeasurer } from './placeholders/server-measurer.js';
import { LargeTextContext } from './text-size.js';
import { PhrasesContext } from './typeset/phrases.js';
import { PhraseTable, renderPhrases } from './typeset/server-phrases.js';

export interface RenderedPage {
  status: number;
  /** The matched route's key, or `not-found` (a bounded label for logs and metrics). */
  route: string;
  /** The deepest matched route's handle (route, title, page module). */
  handle: RouteHandle;
  /** Source paths of the lazy page modules matched, for modulepreload and CSS links. */
  modules: string[];
  /** The code of the error a loader ended with (a ContentError's: `not_found`, `busy`, …), if any. */
  errorCode: string | undefined;
  /** What the loaders read, by route id (`root` is the layout's): the head is made from it. */
  loaderData: Readonly<Record<string, unknown>>;
  /** The srcsets of the pictures the page preloads (its first screen's), known once the shell is ready. */
  firstScreen: readonly string[];
  /** Starts React's stream; the callbacks say when the shell can be piped or failed. */
  stream(callbacks: { onShellReady(): void; onShellError(error: unknown): void; onError(error: unknown): void }): PipeableStream;
}

export interface AppRenderer {
  /**
   * Runs the loaders for `request`, reading content through `contentApi`, and prepares the
   * stream, drawn in the large-text mode when `largeText`.
   */
  render(request: Request, contentApi: ContentApi, largeText?: boolean): Promise<RenderedPage | Response>;
}

export function createAppRenderer(): AppRenderer {
  const handler = createStaticHandler(createRoutes());

  return {
    async render(request, contentApi, largeText = false) {
      const requestContext = new RouterContextProvider(new Map([[contentApiContext, contentApi]]));
      const context = await handler.query(request, { requestContext });
      if (context instanceof Response) return context;
      const router = createStaticRouter(handler.dataRoutes, context);
      const handles = context.matches.map((m) => m.route.handle as RouteHandle | undefined);
      const handle = deepestHandle(handles);
      const firstScreen: string[] = [];
      const hydration = {
        loaderData: context.loaderData,
        actionData: context.actionData,
        errors: context.errors,
      };
      return {
        status: context.statusCode,
        route: handle.route ?? 'not-found',
        handle,
        modules: handles.flatMap((h) => (h?.module ? [h.module] : [])),
        errorCode: errorCodeOf(context.errors),
        loaderData: context.loaderData,
        firstScreen,
        stream: (callbacks) => {
          const phrases = renderPhrases((text) => callbacks.onError(new Error(`typeset after the phrase table was written: ${text}`)));
          return renderToPipeableStream(
            <>
              <div id="root">
                <StrictMode>
                  <LargeTextContext value={largeText}>
                    <PhrasesContext value={phrases}>
                      <FirstScreen value={(srcSet) => firstScreen.push(srcSet)}>
                        <MeasurerContext value={serverMeasurer}>
                          <StaticRouterProvider router={router} context={context} hydrate={false} />
                        </MeasurerContext>
                      </FirstScreen>
                    </PhrasesContext>
                  </LargeTextContext>
                </StrictMode>
              </div>
              <PhraseTable phrases={phrases} />
              <script type="application/json" id={ROUTER_DATA_ID} dangerouslySetInnerHTML={{ __html: serializeForScript(hydration) }} />
            </>,
            callbacks,
          );
        },
      };
    },
  };
}

function deepestHandle(handles: (RouteHandle | undefined)[]): RouteHandle {
  for (let i = handles.length - 1; i >= 0; i--) {
    const h = handles[i];
    if (h?.title) return h;
  }
  return { title: '' };
}

/** The code a loader's error response carries (app-routes.ts throws `data({ code, message })`). */
function errorCodeOf(errors: Record<string, unknown> | null): string | undefined {
  for (const error of Object.values(errors ?? {})) {
    const data: unknown = isRouteErrorResponse(error) ? error.data : undefined;
    if (typeof data === 'object' && data !== null && 'code' in data && typeof data.code === 'string') return data.code;
  }
  return undefined;
}
