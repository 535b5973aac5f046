# One image for the five apps; the app is chosen by APP (build arg default, runtime env override):
#   docker build --build-arg APP=quote-service -t swapgw/quote-service .
#   docker run -e APP=gateway swapgw/app
# Stages: deps (all packages) → build (swc into dist/) → prod-deps (runtime packages) → runtime.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
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
USER node
EXPOSE 3000 3101 3102 3103 3104
# exec: node replaces the shell as PID 1, so SIGTERM reaches the app for a graceful stop.
CMD ["sh", "-c", "exec node --enable-source-maps dist/apps/${APP}/src/main.js"]
