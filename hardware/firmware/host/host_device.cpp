// A device on a PC, built from StudProtocol.h, for tests/hardware/test_serial_firmware.py.
//
//   host_device KINDS NAME SCRIPT
//
// Standard input: what the kiosk sends; standard output: what the device sends (both the master
// side of a pseudo-terminal whose other side the kiosk opened); standard error: a log and, at the
// end, the display state. The script's lines are played one by one, each after the previous one got
// its ACK or NAK:  card SEAT CARD [up|down] | tag SEAT HEX | btn NAME | err TEXT | raw LINE
// The program says HELLO when the kiosk's first PING arrives and ends when it receives "TEXT bye".
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "../stud_table/StudProtocol.h"

static unsigned long nowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void writeAll(const char* data, int length) {
  while (length > 0) {
    ssize_t n = write(1, data, (size_t)length);
    if (n <= 0) return;
    data += n;
    length -= (int)n;
  }
}

static std::vector<std::string> readScript(const char* path) {
  std::vector<std::string> lines;
  FILE* file = fopen(path, "r");
  if (!file) return lines;
  char buf[256];
  while (fgets(buf, sizeof buf, file)) {
    std::string line(buf);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  fclose(file);
  return lines;
}

static int hexToBytes(const std::string& hex, unsigned char* out) {
  int n = 0;
  for (size_t i = 0; i + 1 < hex.size() && n < 16; i += 2) {
    out[n++] = (unsigned char)strtol(hex.substr(i, 2).c_str(), nullptr, 16);
  }
  return n;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: host_device KINDS NAME SCRIPT\n");
    return 2;
  }
  std::vector<std::string> script = readScript(argv[3]);
  size_t next = 0;
  bool greeted = false, waiting = false;
  stud::LineReader reader;
  stud::Display display;
  stud::RepeatGuard guard(1000);
  char out[stud::MAX_LINE + 1];

  // play script lines until one is sent that the kiosk will answer
  auto play = [&]() {
    while (next < script.size()) {
      std::string line = script[next++];
      char word[16] = {0}, card[8] = {0}, flag[8] = {0}, hex[40] = {0};
      int seat = 0, length = 0;
      if (sscanf(line.c_str(), "card %d %7s %7s", &seat, card, flag) >= 2) {
        int up = flag[0] ? (strcmp(flag, "up") == 0) : -1;
        length = stud::formatCard(out, seat, card, up);
      } else if (sscanf(line.c_str(), "tag %d %39s", &seat, hex) == 2) {
        unsigned char uid[16];
        int n = hexToBytes(hex, uid);
        if (!guard.fresh(seat, uid, n, nowMs())) {
          fprintf(stderr, "repeat %s\n", line.c_str());
          continue;
        }
        length = stud::formatTag(out, seat, uid, n, -1);
      } else if (sscanf(line.c_str(), "btn %15s", word) == 1) {
        length = stud::formatButton(out, word);
      } else if (line.rfind("err ", 0) == 0) {
        length = stud::formatError(out, line.c_str() + 4);
      } else if (line.rfind("raw ", 0) == 0) {
        std::string raw = line.substr(4) + "\n";
        writeAll(raw.c_str(), (int)raw.size());
        waiting = true;
        return;
      } else {
        fprintf(stderr, "script line not understood: %s\n", line.c_str());
        continue;
      }
      writeAll(out, length);
      waiting = true;
      return;
    }
  };

  char chunk[256];
  for (;;) {
    ssize_t n = read(0, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fprintf(stderr, "the line is gone\n");
      return 1;
    }
    for (ssize_t i = 0; i < n; i++) {
      if (!reader.feed(chunk[i])) continue;
      const char* reason = nullptr;
      stud::Kind kind = stud::handleKioskLine(reader.line(), display, &reason);
      fprintf(stderr, "< %s\n", reader.line());
      if (kind == stud::PING) {
        writeAll("PONG\n", 5);
        if (!greeted) {
          greeted = true;
          int length = stud::formatHello(out, argv[1], argv[2]);
          writeAll(out, length);
          waiting = true;
        }
      } else if (kind == stud::ACK || kind == stud::NAK) {
        if (waiting) {
          waiting = false;
          play();
        }
      } else if (kind == stud::TEXT && strcmp(display.text, "bye") == 0) {
        fprintf(stderr, "STATE pot=%ld turn=%d leds=%s\n", display.pot, display.turn, display.leds);
        return 0;
      } else if (kind == stud::BAD) {
        int length = snprintf(out, sizeof out, "NAK syntax not understood\n");
        writeAll(out, length);
      }
    }
  }
}
