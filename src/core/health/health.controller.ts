import { BeforeApplicationShutdown, Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { Public } from '../auth/public.decorator';
import { migrationsApplied, pingDatabase } from '../database/migrate';
import { DrainState } from './drain-state';

/** Liveness and readiness, public (they hold no records). */
@ApiExcludeController()
@Public()
@Controller()
export class HealthController implements BeforeApplicationShutdown {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly drain: DrainState,
  ) {}

  /** Liveness: the process answers HTTP. */
  @Get('health')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /** From the start of a graceful shutdown (the signal, or app.close()), readiness fails so load balancers stop sending requests. */
  beforeApplicationShutdown(): void {
    this.drain.start();
  }

  /** Readiness: not shutting down, the database answers within 2 s and every migration is applied (else 503). */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      async () => {
        const check = this.indicator.check('process');
        return this.drain.draining ? check.down({ message: 'shutting down' }) : check.up();
      },
      async () => {
        const check = this.indicator.check('database');
        try {
          const timeout = new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('timeout')), 2000).unref(),
          );
          await Promise.race([pingDatabase(this.dataSource), timeout]);
          return check.up();
        } catch {
          return check.down({ message: 'database unreachable' });
        }
      },
      async () => {
        const check = this.indicator.check('migrations');
        try {
          return (await migrationsApplied(this.dataSource))
            ? check.up()
            : check.down({ message: 'pending migrations' });
        } catch {
          return check.down({ message: 'cannot read migrations' });
        }
      },
    ]);
  }
}

@Module({ imports: [TerminusModule], controllers: [HealthController], providers: [DrainState], exports: [DrainState] })
export class HealthModule {}
