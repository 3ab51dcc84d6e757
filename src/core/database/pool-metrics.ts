import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { Db } from './db';
import { Replicas } from './replicas';

/** pg-pool's counts (the embedded database's single connection has none). */
type Counted = Pool & { totalCount?: number; idleCount?: number; waitingCount?: number; options?: { max?: number } };

/**
 * The database gauges of API.md section 20, read from memory at each scrape: every pool's
 * connections (used, idle), the requests waiting for one, its size; the connections opened
 * outside the pools (pool `direct`: LISTEN, session locks; on PostgreSQL only, all `used`, no
 * size nor queue); each replica's state and lag from its last health check.
 */
@Injectable()
export class PoolMetrics implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly db: Db,
    private readonly replicas: Replicas,
  ) {}

  onModuleInit(): void {
    if (this.config.metrics.port === 0) return;
    const connections = this.metrics.gauge('db_client_connections');
    const pending = this.metrics.gauge('db_client_connection_pending_requests');
    const max = this.metrics.gauge('db_client_connection_max');
    const up = this.metrics.gauge('crm_replica_up');
    const lag = this.metrics.gauge('crm_replica_lag_bytes');
    const pools: [string, Counted][] = [
      ['primary', this.db.pool as Counted],
      ...this.replicas.replicas.map((r, i): [string, Counted] => [`replica_${i}`, r.pool as Counted]),
    ];
    this.metrics.onScrape(() => {
      for (const [name, pool] of pools) {
        if (pool.totalCount === undefined) continue;
        const label = { db_client_connection_pool_name: name };
        connections.set({ ...label, db_client_connection_state: 'used' }, pool.totalCount - (pool.idleCount ?? 0));
        connections.set({ ...label, db_client_connection_state: 'idle' }, pool.idleCount ?? 0);
        pending.set(label, pool.waitingCount ?? 0);
        max.set(label, pool.options?.max ?? 0);
      }
      // PostgreSQL only: the embedded database is one connection, no client opens another
      if (this.config.databaseUrl)
        connections.set(
          { db_client_connection_pool_name: 'direct', db_client_connection_state: 'used' },
          this.db.directConnections.open,
        );
      this.replicas.replicas.forEach((replica, i) => {
        const label = { db_client_connection_pool_name: `replica_${i}` };
        up.set(label, replica.healthy ? 1 : 0);
        lag.set(label, replica.lagBytes);
      });
    });
  }
}
