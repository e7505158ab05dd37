// Type definitions for llhttp-napi/server: node:http's server types, with
// the request's getHeader() added. docs/server.md.

/// <reference types="node" />

import type * as http from 'node:http';
import type * as https from 'node:https';
import type * as net from 'node:net';
import type * as tls from 'node:tls';

/** node:http's server options (llhttp-napi/server takes them all, with node:http's checks). */
export interface ServerOptions extends http.ServerOptions {}

/** The request: node:http's IncomingMessage API, plus getHeader(). */
export interface ServerRequest extends http.IncomingMessage {
  /** The first value of a header (any case), or undefined; lazy. */
  getHeader(name: string): string | undefined;
}

/** The response: node:http's ServerResponse API. */
export type ServerResponse = http.ServerResponse<ServerRequest>;

/** The request class: the base of a class given as the IncomingMessage option. */
export const IncomingMessage: new (socket: import('node:net').Socket) => ServerRequest;
/** The response class: the base of a class given as the ServerResponse option. */
export const ServerResponse: new (req: ServerRequest) => ServerResponse;

export type RequestListener = (req: ServerRequest, res: ServerResponse) => void;

/** A net.Server with node:http's server API (properties, methods, events). */
export interface Server extends http.Server {}
export class Server {
  constructor(handler?: RequestListener);
  constructor(options?: ServerOptions | null, handler?: RequestListener);
}

/** A tls.Server with node:https's server API. */
export interface SecureServer extends https.Server {}
export class SecureServer {
  constructor(handler?: RequestListener);
  constructor(options?: (ServerOptions & tls.TlsOptions) | null, handler?: RequestListener);
}

export function createServer(handler?: RequestListener): Server;
export function createServer(options: ServerOptions | null | undefined, handler?: RequestListener): Server;
export function createServer(options: ServerOptions & tls.TlsOptions, handler?: RequestListener): Server | SecureServer;

type ListenCallback = (error?: Error) => void;

/**
 * Express's `app.listen(...)` on this server (docs/server.md, "Express"): `createServer(app)`, then
 * `listen(...)`; a callback given last also hears a listen error. Returns the server.
 */
export function listen(app: RequestListener, port?: number, hostname?: string, backlog?: number, callback?: ListenCallback): Server;
export function listen(app: RequestListener, port?: number, hostname?: string, callback?: ListenCallback): Server;
export function listen(app: RequestListener, port?: number, callback?: ListenCallback): Server;
export function listen(app: RequestListener, path: string, callback?: ListenCallback): Server;
export function listen(app: RequestListener, options: net.ListenOptions, callback?: ListenCallback): Server;

/**
 * What `createServer(app)` does to the Express app it is given, for an app a served app calls as a
 * plain handler instead of mounting it (`vhost(host, otherApp)`). Returns the app.
 */
export function prepareExpressApp<App extends RequestListener>(app: App, options?: ServerOptions): App;

/** The options Fastify hands to its serverFactory that this factory reads. */
export interface FastifyFactoryOptions {
  http?: ServerOptions | null;
  https?: (ServerOptions & tls.TlsOptions) | true | null;
  http2?: boolean;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

/**
 * Fastify's serverFactory: `fastify({ serverFactory: fastifyServerFactory })`. Builds the server
 * Fastify would build on node:http (a SecureServer with `https`), with the same options and timeouts.
 */
export function fastifyServerFactory(handler: RequestListener,
  options: FastifyFactoryOptions & { https: (ServerOptions & tls.TlsOptions) | true }): SecureServer;
export function fastifyServerFactory(handler: RequestListener, options?: FastifyFactoryOptions): Server;
// (As Fastify types its serverFactory for an https app.)
export function fastifyServerFactory(handler: RequestListener, options: Record<string, unknown>): SecureServer;
