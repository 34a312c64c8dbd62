#!/usr/bin/env bash
# The gate station's hardware tests need: socat (pseudo-terminal pairs for serial readers and
# relays), CUPS with the cups-pdf virtual printer (a real print queue that writes PDF files),
# libusb (node-hid's native library), zbar-tools and poppler-utils (to read back printed badges).
# Idempotent: installs only what is missing, starts cupsd only if it is not running, creates the
# queue only if it does not exist. Debian; run as root (CI machines and the dev containers are).
set -euo pipefail

QUEUE="${ACCREDO_TEST_PRINTER:-accredo-pdf}"

missing=()
command -v socat >/dev/null 2>&1 || missing+=(socat)
command -v cupsd >/dev/null 2>&1 || missing+=(cups)
command -v lp >/dev/null 2>&1 || missing+=(cups-client)
[ -e /usr/lib/cups/backend/cups-pdf ] || missing+=(printer-driver-cups-pdf)
command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
ldconfig -p 2>/dev/null | grep -q 'libusb-1.0.so.0' || missing+=(libusb-1.0-0)
if [ ${#missing[@]} -gt 0 ]; then
  echo "• installing ${missing[*]} for the station's hardware tests"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# cupsd without systemd: `service cups start` where the init script exists, else the daemon itself.
if ! lpstat -r 2>/dev/null | grep -q 'is running'; then
  echo "• starting CUPS"
  service cups start >/dev/null 2>&1 || cupsd
  for _ in $(seq 1 30); do lpstat -r 2>/dev/null | grep -q 'is running' && break; sleep 0.5; done
fi

if ! lpstat -p "$QUEUE" >/dev/null 2>&1; then
  echo "• creating the PDF print queue $QUEUE (cups-pdf)"
  ppd=$(lpinfo -m 2>/dev/null | awk 'tolower($0) ~ /cups-pdf/ {print $1; exit}')
  lpadmin -p "$QUEUE" -E -v cups-pdf:/ -m "${ppd:-lsb/usr/cups-pdf/CUPS-PDF_opt.ppd}"
  cupsenable "$QUEUE" >/dev/null 2>&1 || true
  cupsaccept "$QUEUE" >/dev/null 2>&1 || true
fi
