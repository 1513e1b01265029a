// A 16x2 character LCD (HD44780) behind a PCF8574 I2C backpack, written row by row.
//
// The backpack's port: P0 RS, P1 RW, P2 E, P3 backlight, P4-P7 the LCD's D4-D7 (the common
// modules). The LCD runs in 4-bit mode; each character is two nibbles, each nibble a byte with E
// high and one with E low, several characters to an I2C transmission. Rows are kept as shown, so
// a row is only written when it changes.
#pragma once

#include <Arduino.h>

class LcdI2c {
 public:
  static const uint8_t COLUMNS = 16;
  static const uint8_t ROWS = 2;

  // Called between I2C transmissions (a row takes a few milliseconds at 100 kHz).
  static void (*idle)();

  explicit LcdI2c(uint8_t address) : address_(address) {}

  // False when nothing answers at the address.
  bool begin();
  // Shows `text` on `row`, padded with spaces or cut to the width.
  void show(uint8_t row, const char* text);

 private:
  uint8_t address_;
  char shown_[ROWS][COLUMNS + 1];

  void send(uint8_t value, bool data);
  void nibble(uint8_t value, bool data);
  uint8_t put(uint8_t* buffer, uint8_t at, uint8_t value, bool data);
};
