# syntax=docker/dockerfile:1
# One image for every part of the service. Without a command it runs the embedded topology
# (`node dist/embedded/main.js`); docker-compose.yml runs each part of the distributed topology from
# the same image with its own entry point (`node dist/<part>/main.js`).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts are not needed (SWC and PostgreSQL binaries come as platform packages), and this
# project never relied on them: the development machines' npm does not run them either.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim
# The heap flags of `npm start` (docs/performance.md): a capped old space
# with a 16 MB young generation keeps the service near 250-330 MB; without them V8 sizes its heap to
# the container and the embedded process idles at 430-470 MB. NODE_OPTIONS reaches every part that
# docker-compose.yml runs from this image.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=224 --max-semi-space-size=16" \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/app/.data
WORKDIR /app
# package.json is needed at run time: it makes dist/**/*.js native ES modules ("type": "module").
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The embedded topology keeps its PostgreSQL and generated secrets in DATA_DIR; give it to `node`.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8000
CMD ["node", "dist/embedded/main.js"]
