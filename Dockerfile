FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# The pinned, hash-checked lock file (pip-compile from pyproject.toml), the same one Heroku uses.
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
COPY bot ./bot
COPY rules ./rules
COPY assets ./assets
COPY locales ./locales
# Run as an unprivileged user; it owns /data, where the SQLite volume is mounted (see fly.toml).
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin hangar \
    && mkdir -p /data && chown hangar:hangar /data
USER hangar
ENV DATABASE_URL=sqlite:////data/hangar.sqlite3 HEALTH_PORT=8080
EXPOSE 8080
CMD ["python", "-m", "bot"]
