# syntax=docker/dockerfile:1
# Node 24 (LTS until 2028). Build: compile TypeScript with the dev dependencies, then keep the
# production ones only. Install scripts are skipped: none of the production dependencies needs one.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# Run: non-root, migrations first (under a PostgreSQL advisory lock, so replicas starting together
# apply them once), then the server. Without DATABASE_URL the embedded database lives in /data
# (mount a volume); with it, set ENCRYPTION_KEY too (the same on every instance).
FROM node:24-bookworm-slim
# SIGTERM drains in-flight requests; 8 s keeps the drain inside `docker stop`'s default 10 s grace
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data MIGRATIONS_RUN=false SHUTDOWN_TIMEOUT_MS=8000
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000 9464
# liveness on the port the server listens on ($PORT, read when the check runs)
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/rest/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["sh", "-c", "node dist/src/cli/migrate.js && exec node dist/src/main.js"]
