// HD44780 instructions and the 4-bit initialisation: Hitachi's HD44780U data sheet, tables 6 and
// figure 24. PCF8574: a write sets all eight port pins at once.
#include "LcdI2c.h"

#include <Wire.h>

namespace {

const uint8_t RS = 0x01;
const uint8_t EN = 0x04;
const uint8_t BACKLIGHT = 0x08;

const uint8_t CLEAR = 0x01;
const uint8_t ENTRY_INCREMENT = 0x06;
const uint8_t DISPLAY_ON = 0x0C;    // display on, cursor and blink off
const uint8_t FUNCTION_4BIT_2LINE = 0x28;
const uint8_t SET_DDRAM = 0x80;
const uint8_t ROW_ADDRESS[2] = {0x00, 0x40};

const uint8_t WIRE_BYTES = 28;  // Wire buffers 32 bytes: seven characters of four bytes a time

}  // namespace

void (*LcdI2c::idle)() = nullptr;

uint8_t LcdI2c::put(uint8_t* buffer, uint8_t at, uint8_t value, bool data) {
  uint8_t flags = BACKLIGHT | (data ? RS : 0);
  uint8_t high = (value & 0xF0) | flags;
  uint8_t low = (uint8_t)(value << 4) | flags;
  buffer[at++] = high | EN;  // the LCD takes D4-D7 when E falls
  buffer[at++] = high;
  buffer[at++] = low | EN;
  buffer[at++] = low;
  return at;
}

void LcdI2c::nibble(uint8_t value, bool data) {
  uint8_t port = (uint8_t)(value << 4) | BACKLIGHT | (data ? RS : 0);
  Wire.beginTransmission(address_);
  Wire.write(port | EN);
  Wire.write(port);
  Wire.endTransmission();
}

void LcdI2c::send(uint8_t value, bool data) {
  uint8_t buffer[4];
  put(buffer, 0, value, data);
  Wire.beginTransmission(address_);
  Wire.write(buffer, sizeof buffer);
  Wire.endTransmission();
}

bool LcdI2c::begin() {
  Wire.begin();
  delay(50);  // the LCD's own power-on reset
  Wire.beginTransmission(address_);
  Wire.write(BACKLIGHT);
  if (Wire.endTransmission() != 0) return false;
  // it may be in 8-bit mode or halfway through a 4-bit byte: three times 8-bit, then 4-bit
  nibble(0x3, false);
  delayMicroseconds(4500);
  nibble(0x3, false);
  delayMicroseconds(4500);
  nibble(0x3, false);
  delayMicroseconds(150);
  nibble(0x2, false);
  send(FUNCTION_4BIT_2LINE, false);
  send(DISPLAY_ON, false);
  send(CLEAR, false);
  delayMicroseconds(2000);
  send(ENTRY_INCREMENT, false);
  for (uint8_t row = 0; row < ROWS; row++) {
    memset(shown_[row], ' ', COLUMNS);
    shown_[row][COLUMNS] = '\0';
  }
  return true;
}

void LcdI2c::show(uint8_t row, const char* text) {
  if (row >= ROWS) return;
  char want[COLUMNS + 1];
  snprintf_P(want, sizeof want, PSTR("%-16.16s"), text);
  if (memcmp(want, shown_[row], COLUMNS) == 0) return;
  uint8_t buffer[WIRE_BYTES];
  uint8_t at = put(buffer, 0, SET_DDRAM | ROW_ADDRESS[row], false);
  for (uint8_t column = 0; column < COLUMNS; column++) {
    at = put(buffer, at, (uint8_t)want[column], true);
    if (at == WIRE_BYTES || column == COLUMNS - 1) {
      Wire.beginTransmission(address_);
      Wire.write(buffer, at);
      Wire.endTransmission();
      at = 0;
      if (idle) idle();
    }
  }
  memcpy(shown_[row], want, COLUMNS);
}
