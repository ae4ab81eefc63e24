FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY bot ./bot
COPY rules ./rules
COPY assets ./assets
# Games live on the volume mounted at /data (see fly.toml).
ENV DATABASE_URL=sqlite:////data/hangar.sqlite3
CMD ["python", "-m", "bot"]
