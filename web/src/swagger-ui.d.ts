// swagger-ui-dist ships its bundle without types; the console uses only its constructor.
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  /** Renders swagger-ui into `domNode` (options: https://swagger.io/docs/open-source-tools/swagger-ui/usage/configuration/). */
  export default function SwaggerUI(options: Record<string, unknown>): unknown;
}
