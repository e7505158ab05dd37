// Type definitions for llhttp-napi/server: node:http's server types, with
// the request's lazy getHeader() added. docs/server.md.

/// <reference types="node" />

import type * as http from 'node:http';
import type * as net from 'node:net';
import type * as tls from 'node:tls';

/** node:http's server options that llhttp-napi/server honours. */
export interface ServerOptions {
  maxHeaderSize?: number;
  insecureHTTPParser?: boolean;
  httpValidation?: 'strict' | 'relaxed' | 'insecure';
  requestTimeout?: number;
  headersTimeout?: number;
  keepAliveTimeout?: number;
  keepAliveTimeoutBuffer?: number;
  connectionsCheckingInterval?: number;
  requireHostHeader?: boolean;
  joinDuplicateHeaders?: boolean;
  noDelay?: boolean;
  keepAlive?: boolean;
  keepAliveInitialDelay?: number;
  highWaterMark?: number;
}

/** The request: node:http's IncomingMessage API, plus getHeader(). */
export interface ServerRequest extends http.IncomingMessage {
  /** The first value of a header (any case), or undefined; lazy. */
  getHeader(name: string): string | undefined;
}

/** The response: node:http's ServerResponse API. */
export type ServerResponse = http.ServerResponse<ServerRequest>;

export type RequestListener = (req: ServerRequest, res: ServerResponse) => void;

interface ServerMethods {
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  maxRequestsPerSocket: number;
  timeout: number;
  closeAllConnections(): void;
  closeIdleConnections(): void;
  setTimeout(msecs?: number, callback?: (socket: net.Socket) => void): this;
}

export interface Server extends net.Server, ServerMethods {}
export class Server {
  constructor(options?: ServerOptions, handler?: RequestListener);
}

export interface SecureServer extends tls.Server, ServerMethods {}
export class SecureServer {
  constructor(options: ServerOptions & tls.TlsOptions, handler?: RequestListener);
}

export function createServer(handler?: RequestListener): Server;
export function createServer(options: ServerOptions, handler?: RequestListener): Server;
export function createServer(options: ServerOptions & tls.TlsOptions, handler?: RequestListener): Server | SecureServer;

/** Fastify's serverFactory: `fastify({ serverFactory: fastifyServerFactory })`. */
export function fastifyServerFactory(handler: RequestListener, options?: {
  keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number;
  maxRequestsPerSocket?: number; maxHeaderSize?: number; insecureHTTPParser?: boolean;
  https?: tls.TlsOptions | null; http2?: boolean;
}): Server | SecureServer;
