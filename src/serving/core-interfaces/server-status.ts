/** What the health, readiness and server-metadata routes read of the serving core. */
export interface ServerStatus {
  readonly serverVersion: string;
  /** TorchServe's health rule: every version has at least its minimum of workers. */
  isHealthy(): boolean;
  /** OIP readiness: not shutting down and every version ready to take requests. */
  isReady(): boolean;
}
