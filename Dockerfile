# One image for the five apps; the app is chosen by APP (build arg default, runtime env override):
#   docker build --build-arg APP=quote-service -t swapgw/quote-service .
#   docker run -e APP=gateway swapgw/app
# Stages: deps (all packages) → build (swc into dist/) → prod-deps (runtime packages) → runtime.
# Node: the version of .nvmrc and tools/stack/node-runtime.mjs (tools/stack/node-runtime.spec.ts checks).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci: exactly the lock, or a failure when package.json and the lock disagree. The lock holds every
# platform's optional binaries (swc, anvil, nx…; tools/deps/lockfile.spec.ts), so Linux x64 and arm64
# images find theirs. Install scripts run only for the packages package.json's allowScripts approves.
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY tsconfig.base.json tsconfig.json .swcrc nx.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
RUN node tools/build/build.mjs

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# The runtime packages alone (dependencies, not devDependencies), without install scripts: none of
# them needs one at run time (tools/build/production-install.int-spec.ts starts the five apps so).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ARG APP=gateway
ENV NODE_ENV=production \
    APP=${APP} \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# The image's node user, by number (uid and gid 1000): Kubernetes' runAsNonRoot can only check a numeric
# user, and the manifests' securityContext (deploy/base) runs as the same.
USER 1000:1000
# 3000 the gateway's API, 9464 its metrics (METRICS_PORT); 3101-3104 the Kafka services' health and metrics.
EXPOSE 3000 9464 3101 3102 3103 3104
# Health of the app APP names: the gateway's GET /api/v1/health?scope=instance on PORT (its own
# dependencies, not the other services: a stopped planner must not get the gateway replaced), a Kafka service's GET /health/live on
# HEALTH_PORT (defaults as in each app's config class). node -e with fetch: the slim image has no curl. Exec form,
# so the variables are read by node at check time (docker compose overrides this with its own checks).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const e=process.env,d={'quote-service':3101,'execution-planner':3102,'signer-surface':3103,'limit-order-service':3104};const u=e.APP==='gateway'?'http://127.0.0.1:'+(e.PORT||3000)+'/api/v1/health?scope=instance':'http://127.0.0.1:'+(e.HEALTH_PORT||d[e.APP])+'/health/live';fetch(u,{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# exec: node replaces the shell as PID 1, so SIGTERM reaches the app for a graceful stop.
CMD ["sh", "-c", "exec node --enable-source-maps dist/apps/${APP}/src/main.js"]
