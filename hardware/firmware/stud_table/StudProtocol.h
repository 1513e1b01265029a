// The stud kiosk's table protocol, version 1 (docs/hardware.md), for a device's firmware.
//
// Only the parts that do not touch hardware: cutting bytes into lines, reading what the kiosk
// sends (ACK, NAK, PING, PONG, POT, TURN, TEXT, LED), writing what a device sends (HELLO, CARD,
// TAG, BTN, ERR, PONG) and not repeating a tag that stays on a reader. Plain C++ without the Arduino
// library, so the same file is compiled and tested on a PC (tests/hardware/test_serial_firmware.py).
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Format strings stay in flash on an AVR (its RAM is 2 KB); on a PC this is plain snprintf.
#if defined(__AVR__)
#include <avr/pgmspace.h>
#define STUD_FORMAT(out, size, format, ...) snprintf_P(out, size, PSTR(format), __VA_ARGS__)
#else
#define STUD_FORMAT(out, size, format, ...) snprintf(out, size, format, __VA_ARGS__)
#endif

namespace stud {

const int PROTOCOL_VERSION = 1;
const int MAX_LINE = 64;  // bytes, counting the '\n'
const int MAX_TEXT = 32;  // characters of a TEXT line
const int MAX_SEAT = 10;  // seats are 1..MAX_SEAT; TURN 0 is nobody

// Bytes in, lines out. feed() returns true when line() holds a complete line (without its "\r\n").
// A line longer than MAX_LINE bytes is dropped whole: feed() returns false for its '\n'.
class LineReader {
 public:
  bool feed(char c) {
    if (c == '\n') {
      bool complete = !overflow_;
      if (len_ > 0 && buf_[len_ - 1] == '\r') len_--;
      buf_[len_] = '\0';
      len_ = 0;
      overflow_ = false;
      return complete;
    }
    if (overflow_) return false;
    if (len_ >= MAX_LINE - 1) {  // no room left for this byte and the '\n'
      overflow_ = true;
      len_ = 0;
      return false;
    }
    buf_[len_++] = c;
    return false;
  }
  const char* line() const { return buf_; }

 private:
  char buf_[MAX_LINE] = {0};
  int len_ = 0;
  bool overflow_ = false;
};

// What the displays show, as the kiosk last said.
struct Display {
  long pot = 0;
  int turn = 0;
  char text[MAX_TEXT + 1] = {0};
  char leds[MAX_SEAT + 1];  // per seat 1..MAX_SEAT: '0' off, '1' on, 'b' blink, '-' not told yet
  Display() {
    memset(leds, '-', MAX_SEAT);
    leds[MAX_SEAT] = '\0';
  }
};

enum Kind { NONE, ACK, NAK, PING, PONG, POT, TURN, TEXT, LED, BAD };

inline bool startsWord(const char* line, const char* word) {
  size_t n = strlen(word);
  return strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' ');
}

inline bool readNumber(const char* text, long low, long high, long* out) {
  if (*text < '0' || *text > '9') return false;
  char* end = nullptr;
  long value = strtol(text, &end, 10);
  if (*end != '\0' && *end != ' ') return false;
  if (value < low || value > high) return false;
  *out = value;
  return true;
}

// Reads one line from the kiosk and applies it to `display`. For NAK, `reason` points at the
// reason in `line`. Returns BAD for a line the device does not understand (it may say NAK).
inline Kind handleKioskLine(const char* line, Display& display, const char** reason = nullptr) {
  long value = 0;
  if (startsWord(line, "ACK")) return ACK;
  if (startsWord(line, "NAK")) {
    if (reason) *reason = line[3] ? line + 4 : line + 3;
    return NAK;
  }
  if (startsWord(line, "PING")) return PING;
  if (startsWord(line, "PONG")) return PONG;
  if (startsWord(line, "POT")) {
    if (!readNumber(line + 4, 0, 1000000000L, &value)) return BAD;
    display.pot = value;
    return POT;
  }
  if (startsWord(line, "TURN")) {
    if (!readNumber(line + 5, 0, MAX_SEAT, &value)) return BAD;
    display.turn = (int)value;
    return TURN;
  }
  if (startsWord(line, "TEXT")) {
    const char* text = line[4] ? line + 5 : line + 4;
    if (strlen(text) > (size_t)MAX_TEXT) return BAD;
    strcpy(display.text, text);
    return TEXT;
  }
  if (startsWord(line, "LED")) {
    if (!readNumber(line + 4, 1, MAX_SEAT, &value)) return BAD;
    const char* state = strchr(line + 4, ' ');
    if (!state) return BAD;
    state++;
    char led;
    if (strcmp(state, "on") == 0) led = '1';
    else if (strcmp(state, "off") == 0) led = '0';
    else if (strcmp(state, "blink") == 0) led = 'b';
    else return BAD;
    display.leds[value - 1] = led;
    return LED;
  }
  return BAD;
}

// ---- lines a device sends: each writes into out[MAX_LINE] with its '\n', returns its length ----

inline int formatHello(char* out, const char* kinds, const char* name) {
  if (name && *name) return STUD_FORMAT(out, MAX_LINE, "HELLO %s %d %s\n", kinds, PROTOCOL_VERSION, name);
  return STUD_FORMAT(out, MAX_LINE, "HELLO %s %d\n", kinds, PROTOCOL_VERSION);
}

// up: 1 face up, 0 face down, -1 the reader cannot tell
inline int formatCard(char* out, int seat, const char* card, int up) {
  const char* flag = up < 0 ? "" : (up ? " up" : " down");
  return STUD_FORMAT(out, MAX_LINE, "CARD %d %s%s\n", seat, card, flag);
}

inline int formatTag(char* out, int seat, const unsigned char* uid, int uidLength, int up) {
  static const char DIGITS[] = "0123456789ABCDEF";  // not HEX: Arduino.h defines it
  char hex[2 * 16 + 1];
  if (uidLength > 16) uidLength = 16;
  for (int i = 0; i < uidLength; i++) {
    hex[2 * i] = DIGITS[uid[i] >> 4];
    hex[2 * i + 1] = DIGITS[uid[i] & 15];
  }
  hex[2 * uidLength] = '\0';
  const char* flag = up < 0 ? "" : (up ? " up" : " down");
  return STUD_FORMAT(out, MAX_LINE, "TAG %d %s%s\n", seat, hex, flag);
}

inline int formatButton(char* out, const char* name) {
  return STUD_FORMAT(out, MAX_LINE, "BTN %s\n", name);
}

// The text is cut to fit one line and anything but printable ASCII becomes '?'.
inline int formatError(char* out, const char* text) {
  int n = STUD_FORMAT(out, MAX_LINE - 1, "ERR %s", text);
  if (n > MAX_LINE - 2) n = MAX_LINE - 2;
  for (int i = 4; i < n; i++) {
    if (out[i] < 0x20 || out[i] > 0x7e) out[i] = '?';
  }
  out[n] = '\n';
  out[n + 1] = '\0';
  return n + 1;
}

// A reader reads a tag again and again while the card lies on it: tell the kiosk once. The same
// uid at the same seat within `windowMs` of its last sighting is a repeat (and extends the window).
class RepeatGuard {
 public:
  explicit RepeatGuard(unsigned long windowMs = 1000) : windowMs_(windowMs) {}
  bool fresh(int seat, const unsigned char* uid, int uidLength, unsigned long nowMs) {
    if (uidLength > 16) uidLength = 16;
    bool same = seat == seat_ && uidLength == length_ && memcmp(uid, uid_, uidLength) == 0;
    bool repeat = same && nowMs - lastMs_ <= windowMs_;
    seat_ = seat;
    length_ = uidLength;
    memcpy(uid_, uid, uidLength);
    lastMs_ = nowMs;
    return !repeat;
  }

 private:
  unsigned long windowMs_;
  int seat_ = 0;
  int length_ = 0;
  unsigned char uid_[16] = {0};
  unsigned long lastMs_ = 0;
};

}  // namespace stud
