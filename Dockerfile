# syntax=docker/dockerfile:1
# The app's image, in the style of Shopify's Remix app template: one image for every process of a deployment
# (README.md, "Deploying on several machines"). The default command applies the migrations and starts the web
# server; compose.yaml runs the same image as web instances (WORKER=off) and workers (`npm run worker`'s
# command). No secret is baked in: everything comes from the environment at run time.
#
# Node 24 LTS, Debian's slim image: glibc, as on the machines CI runs on, so the same native builds of the
# SQLite driver are installed. The Node major here must satisfy `engines` in package.json (a test checks).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The whole tree, dev dependencies included: the install runs `npm run generate` (the Prisma clients for
# SQLite and PostgreSQL, the Admin schema, GraphQL types from app/'s operations, so it needs the sources),
# and the build needs Remix's Vite plugin. Then the dev dependencies go; the generated clients stay.
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
# Code and dependencies belong to root and are read-only to the app; only the cache folder is written at run
# time (prisma.config.ts derives the PostgreSQL schema there before `prisma migrate deploy`).
COPY --from=build /app /app
RUN chown -R node:node /app/.cache
USER node
EXPOSE 3000
# GET /healthz: 200 when the database answers, 503 when not (app/routes/healthz.ts). Workers serve no HTTP:
# compose.yaml turns this check off for them.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Migrations first (safe on every start: only those not yet applied, under PostgreSQL's advisory lock), then
# `npm start`'s own command, exec'd so that the server is the container's first process and receives the
# orchestrator's SIGTERM: under `npm start` the signal ends npm and its shell but not the server, which
# would be killed without its graceful stop.
CMD ["sh", "-c", "npm run setup && exec node ./server.js"]
