# Lairkeeper: python bot.py with the SQLite database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    LAIRKEEPER_DB=/data/lairkeeper.db

RUN useradd --create-home --uid 10001 lairkeeper \
    && mkdir -p /data && chown lairkeeper:lairkeeper /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot.py ./
COPY engine ./engine
COPY render ./render
COPY store ./store
COPY tables ./tables
COPY cogs ./cogs
COPY data ./data
# The frozen engine of release f63664e: games begun then replay on it (legacy/r1/README.md).
COPY legacy ./legacy
COPY docs ./docs
RUN pip install --no-cache-dir -e .
# The bot's own code byte-compiled now: with PYTHONDONTWRITEBYTECODE (and /app not
# writable by the bot's user) every start would otherwise compile some 13,000 lines
# before "ready" (docs/performance.md, start-up). The same list as bench/sections.py.
RUN python -m compileall -q bot.py engine render store tables cogs legacy

USER lairkeeper
VOLUME ["/data"]
# DISCORD_TOKEN comes from the environment: docker run -e DISCORD_TOKEN=... -v lairkeeper:/data lairkeeper
CMD ["python", "bot.py"]
