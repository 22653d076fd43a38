import { exporterSettings } from '../otlp-exporter.js';

/** What OpenTelemetry's standard variables configure (docs/observability.md#traces). */
describe('exporterSettings', () => {
  const settings = (env: NodeJS.ProcessEnv, warnings: string[] = []) =>
    exporterSettings(env, 'billing', message => warnings.push(message));

  test('no endpoint: tracing stays off', () => {
    expect(settings({})).toBeNull();
  });

  test('the base endpoint gets /v1/traces; the traces endpoint is used as it is and wins', () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })?.url.href).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://vendor.example/otlp/traces',
      })?.url.href,
    ).toBe('https://vendor.example/otlp/traces');
  });

  test('the defaults, and the _TRACES_ form of each variable over the general one', () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toMatchObject({
      headers: {},
      timeoutMs: 10_000,
      gzip: false,
      scheduleDelayMs: 5000,
      maxQueueSize: 2048,
      maxBatchSize: 512,
      resource: { 'service.name': 'billing', 'telemetry.sdk.language': 'nodejs' },
    });
    expect(
      settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=2',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=3',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
        OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '3000',
        OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '500',
        OTEL_SERVICE_NAME: 'billing-eu',
      }),
    ).toMatchObject({
      headers: { a: '1', b: '3' },
      timeoutMs: 3000,
      gzip: true,
      maxQueueSize: 100,
      maxBatchSize: 100, // never more than the queue holds
      resource: { 'service.name': 'billing-eu' },
    });
  });

  test('what it cannot honour is said; an endpoint that is not a URL stops the start, named', () => {
    const warnings: string[] = [];
    const given = settings(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_BSP_SCHEDULE_DELAY: 'soon',
      },
      warnings,
    );
    expect(given?.scheduleDelayMs).toBe(5000);
    expect(warnings).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this service exports traces as http/json only',
      'OTEL_BSP_SCHEDULE_DELAY=soon is not a positive whole number: 5000',
    ]);
    expect(() => settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT=collector:4318 is not an http(s) URL',
    );
    expect(() => settings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=not a url is not an http(s) URL',
    );
  });
});
