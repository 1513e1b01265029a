// Reference firmware for a stud kiosk table board: RC522 RFID readers (one per seat), ten dealer
// buttons, a 16x2 I2C character LCD and one LED per seat, speaking the table protocol version 1
// (docs/hardware.md) over USB serial at 115200 baud.
//
// Board: an Arduino Uno or Nano (ATmega328P, 5 V; the RC522 gets 3.3 V). No library to install:
// the readers and the LCD are driven by Rc522.cpp and LcdI2c.cpp with the Arduino core's SPI and
// Wire. Wiring and bill of materials: docs/hardware.md. Remove what your table does not have by
// setting its count to 0 below; a board with only buttons, or only a display, is fine: the HELLO
// line names what it has.
//
// The readers send TAG lines: register the deck once on the kiosk's /devices page. The protocol
// code is in StudProtocol.h, shared with the PC build that the kiosk's tests run.

#include <SPI.h>
#include <Wire.h>

#include "LcdI2c.h"
#include "Rc522.h"
#include "StudProtocol.h"

// ---- the table: change to match your wiring ------------------------------------------------------

const char DEVICE_NAME[] = "stud-table";  // no spaces; shown on the kiosk's /devices page

// RC522 readers on the SPI bus (SCK 13, MISO 12, MOSI 11): one SS pin each, RST shared.
const uint8_t READER_COUNT = 4;
const uint8_t READER_SS[READER_COUNT] = {10, 9, 8, 7};
const uint8_t READER_SEAT[READER_COUNT] = {1, 2, 3, 4};  // the seat each reader lies under
const uint8_t READER_RST = 6;

// Buttons on resistor ladders: a 10 kOhm pull-up from the analog pin to 5 V, and each button from
// the pin to GND through its own resistor, 0, 1 k, 2.2 k, 4.7 k and 10 kOhm in the order below.
// A reading under LADDER_BELOW[i] (of 1023) is button i; two pressed at once read as the first.
const uint8_t LADDER_COUNT = 2;
const uint8_t LADDER_PIN[LADDER_COUNT] = {A0, A1};
const uint8_t LADDER_STEPS = 5;
const char* const LADDER_BUTTON[LADDER_COUNT][LADDER_STEPS] = {
    {"FOLD", "CHECK", "CALL", "BET", "RAISE"},
    {"BRINGIN", "COMPLETE", "CONFIRM", "UNDO", "NEXT"},
};
const uint16_t LADDER_BELOW[LADDER_STEPS] = {46, 138, 255, 419, 767};  // halfway between steps
const unsigned long DEBOUNCE_MS = 30;

// One LED per seat (through a 220 ohm resistor), seat 1 first; 0 for none.
const uint8_t LED_COUNT = 4;
const uint8_t LED_PIN[LED_COUNT] = {2, 3, 4, 5};
const unsigned long BLINK_MS = 400;

// A 16x2 LCD with a PCF8574 I2C backpack (SDA A4, SCL A5); false for none.
const bool HAS_LCD = true;
const uint8_t LCD_ADDRESS = 0x27;  // 0x3F on backpacks with a PCF8574A

// ---- state ---------------------------------------------------------------------------------------

Rc522 readers[READER_COUNT];
stud::RepeatGuard guards[READER_COUNT];
bool readerOk[READER_COUNT];
LcdI2c lcd(LCD_ADDRESS);
bool lcdOk = false;
stud::LineReader input;
stud::Display display;
char notice[stud::MAX_TEXT + 1] = "";  // the last NAK's reason, shown until the next TEXT
bool lcdDirty = true;
bool helloAcked = false;
int8_t ladderSeen[LADDER_COUNT];     // the button each ladder reads now (-1: none)
int8_t ladderStable[LADDER_COUNT];   // the button it read for DEBOUNCE_MS
unsigned long ladderChanged[LADDER_COUNT];
unsigned long lastBlink = 0;
bool blinkOn = false;

void send(const char* text, int length) { Serial.write((const uint8_t*)text, length); }

void sayHello() {
  char kinds[32] = "";
  if (READER_COUNT) strcat(kinds, "reader");
  if (LADDER_COUNT) strcat(kinds, kinds[0] ? "+buttons" : "buttons");
  if (HAS_LCD || LED_COUNT) strcat(kinds, kinds[0] ? "+display" : "display");
  char out[stud::MAX_LINE + 1];
  send(out, stud::formatHello(out, kinds, DEVICE_NAME));
  // and what does not work, each time: the kiosk may have opened the port after the first HELLO
  for (uint8_t i = 0; i < READER_COUNT; i++) {
    if (readerOk[i]) continue;
    char text[40];
    snprintf_P(text, sizeof text, PSTR("reader at seat %d not answering"), READER_SEAT[i]);
    send(out, stud::formatError(out, text));
  }
  if (HAS_LCD && !lcdOk) send(out, stud::formatError(out, "LCD not answering on I2C"));
}

void showLeds() {
  for (uint8_t i = 0; i < LED_COUNT && i < stud::MAX_SEAT; i++) {
    char state = display.leds[i];
    bool on = state == '1' || (state == 'b' && blinkOn);
    digitalWrite(LED_PIN[i], on ? HIGH : LOW);
  }
}

// What the kiosk says is applied at once (LEDs) or marked for the LCD, which is written from
// loop(): handling a line never waits, so it can run while a reader or the LCD is busy.
void handleKiosk(const char* text) {
  const char* reason = nullptr;
  switch (stud::handleKioskLine(text, display, &reason)) {
    case stud::PING:
      Serial.print(F("PONG\n"));
      if (!helloAcked) sayHello();  // the kiosk opened the port after our first HELLO
      break;
    case stud::ACK:
      helloAcked = true;
      break;
    case stud::NAK: {  // a refused read or press: show why (after the code) until the next TEXT
      helloAcked = true;
      const char* words = strchr(reason, ' ');
      strncpy(notice, words ? words + 1 : reason, stud::MAX_TEXT);
      notice[stud::MAX_TEXT] = '\0';
      lcdDirty = true;
      break;
    }
    case stud::TEXT:
      notice[0] = '\0';
      lcdDirty = true;
      break;
    case stud::POT:
    case stud::TURN:
      lcdDirty = true;
      break;
    case stud::LED:
      showLeds();
      break;
    case stud::BAD:
      Serial.print(F("NAK syntax not understood\n"));
      break;
    default:
      break;
  }
}

// Takes what arrived on the serial line. Called from loop() and while the readers and the LCD
// wait, so the 64-byte receive buffer never fills (at 115200 baud it does in 5.6 ms).
void serveSerial() {
  while (Serial.available() > 0) {
    if (input.feed((char)Serial.read())) handleKiosk(input.line());
  }
}

void drawLcd() {
  if (!lcdOk || !lcdDirty) return;
  lcdDirty = false;
  char row[24];
  if (display.turn) snprintf_P(row, sizeof row, PSTR("Pot %-8ld >%2d"), display.pot, display.turn);
  else snprintf_P(row, sizeof row, PSTR("Pot %ld"), display.pot);
  lcd.show(0, row);
  lcd.show(1, notice[0] ? notice : display.text);  // the first 16 of up to 32 characters
}

void pollReaders() {
  for (uint8_t i = 0; i < READER_COUNT; i++) {
    if (!readerOk[i]) continue;
    uint8_t uid[Rc522::MAX_UID];
    uint8_t length = readers[i].readNewCard(uid);
    unsigned long now = millis();
    if (length && guards[i].fresh(READER_SEAT[i], uid, length, now)) {
      char out[stud::MAX_LINE + 1];
      send(out, stud::formatTag(out, READER_SEAT[i], uid, length, -1));
    }
    serveSerial();
  }
}

int8_t ladderButton(uint8_t ladder) {
  uint16_t value = analogRead(LADDER_PIN[ladder]);
  for (uint8_t step = 0; step < LADDER_STEPS; step++) {
    if (value < LADDER_BELOW[step]) return step;
  }
  return -1;
}

void pollButtons() {
  unsigned long now = millis();
  for (uint8_t i = 0; i < LADDER_COUNT; i++) {
    int8_t button = ladderButton(i);
    if (button != ladderSeen[i]) {
      ladderSeen[i] = button;
      ladderChanged[i] = now;
    } else if (button != ladderStable[i] && now - ladderChanged[i] >= DEBOUNCE_MS) {
      ladderStable[i] = button;
      if (button >= 0) {  // on press, not on release
        char out[stud::MAX_LINE + 1];
        send(out, stud::formatButton(out, LADDER_BUTTON[i][button]));
      }
    }
  }
}

void setup() {
  Serial.begin(115200);
  for (uint8_t i = 0; i < LED_COUNT; i++) pinMode(LED_PIN[i], OUTPUT);
  for (uint8_t i = 0; i < LADDER_COUNT; i++) {
    ladderSeen[i] = ladderStable[i] = -1;
    ladderChanged[i] = 0;
  }
  if (HAS_LCD) {
    LcdI2c::idle = serveSerial;
    lcdOk = lcd.begin();
  }
  if (READER_COUNT) {
    SPI.begin();
    for (uint8_t i = 0; i < READER_COUNT; i++) {
      pinMode(READER_SS[i], OUTPUT);
      digitalWrite(READER_SS[i], HIGH);  // every reader deselected before any is spoken to
    }
    Rc522::idle = serveSerial;
    Rc522::powerUp(READER_RST);
  }
  for (uint8_t i = 0; i < READER_COUNT; i++) readerOk[i] = readers[i].begin(READER_SS[i]);
  sayHello();
}

void loop() {
  serveSerial();
  pollReaders();
  pollButtons();
  serveSerial();
  drawLcd();
  unsigned long now = millis();
  if (now - lastBlink >= BLINK_MS) {
    lastBlink = now;
    blinkOn = !blinkOn;
    showLeds();
  }
}
