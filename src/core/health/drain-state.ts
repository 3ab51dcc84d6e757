import { Injectable } from '@nestjs/common';

/**
 * Whether this process is draining: set at the first moment of a graceful shutdown, before the
 * listener closes, so that readiness answers 503 while requests are still served and load
 * balancers take the instance out before it stops accepting connections.
 */
@Injectable()
export class DrainState {
  private drainingSince: number | undefined;

  /** Marks the process as draining (idempotent). */
  start(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }
}
