'use strict';
// OpenTelemetry's HTTP instrumentation as an application sets it up in a
// preload (`-r` / `--import` / NODE_OPTIONS): a tracer provider exporting to
// memory, and instrumentation-http and instrumentation-net registered (as
// auto-instrumentations-node registers them). test/server/opentelemetry.test.js.
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const { SimpleSpanProcessor, InMemorySpanExporter } = require('@opentelemetry/sdk-trace-base');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { NetInstrumentation } = require('@opentelemetry/instrumentation-net');

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
registerInstrumentations({ instrumentations: [new HttpInstrumentation(), new NetInstrumentation()] });
global.otelExporter = exporter;
