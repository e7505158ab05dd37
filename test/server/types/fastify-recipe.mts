// The same recipe in its ES module form.
import fastify from 'fastify';
import { fastifyServerFactory } from 'llhttp-napi/server';

const app = fastify({ serverFactory: fastifyServerFactory });
await app.listen({ port: 0 });
await app.close();
