#!/bin/sh
# The web container's command: uvicorn with WEB_WORKERS processes, each serving pages, API and
# websockets on port 8000.
#
# X-Forwarded-For and -Proto are believed only from FORWARDED_ALLOW_IPS. Unset or empty, it
# depends on HTTPS: behind a TLS proxy (HTTPS=1) Docker's networks are trusted, because a proxy on
# this machine reaches the container through the bridge's gateway and one in another container
# from its own network; without a proxy (HTTPS=0) nobody is, because then every client that
# connects through the published port arrives from that same gateway (docker-proxy), and one who
# sent X-Forwarded-For would be taken at his word: another address for each try at a password.
#
# A worker process that does not answer uvicorn's health check within
# --timeout-worker-healthcheck seconds is killed and started again. Its default, 5 s, is shorter
# than a first start of several Python processes on two cores takes, and the supervisor then
# killed healthy workers in the middle of their start ("Child process [8] died").
#
# The access log comes from the app, with request ids (core/middleware.py); Channels has no
# lifespan events. Websocket frames are not compressed per socket (permessage-deflate): the
# standings frames are gzip already, compressed once for every phone, and compressing each
# frame again for each of a thousand sockets cost the web processes about 6 % of their time.
set -eu

case "$(printf '%s' "${HTTPS:-1}" | tr '[:upper:]' '[:lower:]')" in
    0 | false | no | off) trusted=127.0.0.1 ;;
    *) trusted=172.16.0.0/12 ;;
esac

exec uvicorn config.asgi:application \
    --host 0.0.0.0 --port 8000 \
    --workers "${WEB_WORKERS:-3}" \
    --timeout-worker-healthcheck 30 \
    --proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-$trusted}" \
    --no-access-log --lifespan off --ws-max-size 65536 --ws-per-message-deflate false
