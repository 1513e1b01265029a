// Reference firmware for a stud kiosk table board: RC522 RFID readers (one per seat), dealer
// buttons, a 16x2 I2C character LCD and one LED per seat, speaking the table protocol version 1
// (docs/hardware.md) over USB serial at 115200 baud.
//
// Board: an Arduino Uno, Nano or Mega (5 V; the RC522 gets 3.3 V). Libraries (Library Manager):
// "MFRC522" by GithubCommunity (miguelbalboa) and "LiquidCrystal I2C" by Frank de Brabander.
// Remove what your table does not have by setting its count to 0 below; a board with only
// buttons, or only a display, is fine: the HELLO line names what it has.
//
// The readers send TAG lines: register the deck once on the kiosk's /devices page. The protocol
// code is in StudProtocol.h, shared with the PC build that the kiosk's tests run.

#include <SPI.h>
#include <Wire.h>
#include <MFRC522.h>
#include <LiquidCrystal_I2C.h>

#include "StudProtocol.h"

// ---- the table: change to match your wiring ------------------------------------------------------

const char DEVICE_NAME[] = "stud-table";  // no spaces; shown on the kiosk's /devices page

// RC522 readers on the SPI bus (SCK 13, MISO 12, MOSI 11 on an Uno): one SS pin each, RST shared.
const uint8_t READER_COUNT = 4;
const uint8_t READER_SS[READER_COUNT] = {10, 9, 8, 7};
const uint8_t READER_SEAT[READER_COUNT] = {1, 2, 3, 4};  // the seat each reader lies under
const uint8_t READER_RST = 6;

// Buttons between a pin and GND (internal pull-ups), sent as BTN <name> when pressed.
const uint8_t BUTTON_COUNT = 6;
const uint8_t BUTTON_PIN[BUTTON_COUNT] = {2, 3, 4, 5, A0, A1};
const char* const BUTTON_NAME[BUTTON_COUNT] = {"FOLD", "CHECK", "CALL", "BET", "UNDO", "NEXT"};
const unsigned long DEBOUNCE_MS = 30;

// One LED per seat (through a 220 ohm resistor), seat 1 first; 0 for none.
const uint8_t LED_COUNT = 2;
const uint8_t LED_PIN[LED_COUNT] = {A2, A3};

// A 16x2 LCD on I2C (SDA A4, SCL A5 on an Uno); 0 for none.
const uint8_t LCD_ADDRESS = 0x27;
const bool HAS_LCD = true;

// ---- state ---------------------------------------------------------------------------------------

MFRC522* readers[READER_COUNT];
stud::RepeatGuard guards[READER_COUNT];
bool readerOk[READER_COUNT];
LiquidCrystal_I2C lcd(LCD_ADDRESS, 16, 2);
stud::LineReader input;
stud::Display display;
char line[stud::MAX_LINE + 1];
bool helloAcked = false;
bool buttonDown[BUTTON_COUNT];
unsigned long buttonChanged[BUTTON_COUNT];
unsigned long lastBlink = 0;
bool blinkOn = false;

void send(int length) { Serial.write((const uint8_t*)line, length); }

void sayHello() {
  char kinds[32] = "";
  if (READER_COUNT) strcat(kinds, "reader");
  if (BUTTON_COUNT) strcat(kinds, kinds[0] ? "+buttons" : "buttons");
  if (HAS_LCD || LED_COUNT) strcat(kinds, kinds[0] ? "+display" : "display");
  send(stud::formatHello(line, kinds, DEVICE_NAME));
}

void showDisplay() {
  if (!HAS_LCD) return;
  char top[17];
  if (display.turn) snprintf(top, sizeof top, "Pot %-9ld >%2d", display.pot, display.turn);
  else snprintf(top, sizeof top, "Pot %-12ld", display.pot);
  lcd.setCursor(0, 0);
  lcd.print(top);
  char bottom[17];
  snprintf(bottom, sizeof bottom, "%-16.16s", display.text);  // the first 16 of 32 characters
  lcd.setCursor(0, 1);
  lcd.print(bottom);
}

void showLeds() {
  for (uint8_t i = 0; i < LED_COUNT && i < stud::MAX_SEAT; i++) {
    char state = display.leds[i];
    bool on = state == '1' || (state == 'b' && blinkOn);
    digitalWrite(LED_PIN[i], on ? HIGH : LOW);
  }
}

void handleKiosk(const char* text) {
  const char* reason = nullptr;
  switch (stud::handleKioskLine(text, display, &reason)) {
    case stud::PING:
      Serial.print("PONG\n");
      if (!helloAcked) sayHello();  // the kiosk opened the port after our first HELLO
      break;
    case stud::ACK:
      helloAcked = true;
      break;
    case stud::NAK:  // a refused read or press: show why for a moment
      helloAcked = true;
      if (HAS_LCD) {
        lcd.setCursor(0, 1);
        char bottom[17];
        snprintf(bottom, sizeof bottom, "%-16.16s", reason);
        lcd.print(bottom);
      }
      break;
    case stud::POT:
    case stud::TURN:
    case stud::TEXT:
      showDisplay();
      break;
    case stud::LED:
      showLeds();
      break;
    case stud::BAD:
      Serial.print("NAK syntax not understood\n");
      break;
    default:
      break;
  }
}

void pollReaders() {
  for (uint8_t i = 0; i < READER_COUNT; i++) {
    if (!readerOk[i]) continue;
    MFRC522& reader = *readers[i];
    // a card that stays on the antenna answers WUPA (IsNewCardPresent only sees new ones)
    byte atqa[2];
    byte size = sizeof atqa;
    if (reader.PICC_WakeupA(atqa, &size) != MFRC522::STATUS_OK) continue;
    if (!reader.PICC_ReadCardSerial()) continue;
    if (guards[i].fresh(READER_SEAT[i], reader.uid.uidByte, reader.uid.size, millis())) {
      send(stud::formatTag(line, READER_SEAT[i], reader.uid.uidByte, reader.uid.size, -1));
    }
    reader.PICC_HaltA();
  }
}

void pollButtons() {
  unsigned long now = millis();
  for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
    bool down = digitalRead(BUTTON_PIN[i]) == LOW;
    if (down == buttonDown[i] || now - buttonChanged[i] < DEBOUNCE_MS) continue;
    buttonDown[i] = down;
    buttonChanged[i] = now;
    if (down) send(stud::formatButton(line, BUTTON_NAME[i]));  // on press, not on release
  }
}

void setup() {
  Serial.begin(115200);
  SPI.begin();
  for (uint8_t i = 0; i < READER_COUNT; i++) {
    pinMode(READER_SS[i], OUTPUT);
    digitalWrite(READER_SS[i], HIGH);  // every reader deselected before any is spoken to
  }
  for (uint8_t i = 0; i < READER_COUNT; i++) {
    readers[i] = new MFRC522(READER_SS[i], READER_RST);
    readers[i]->PCD_Init();
    byte version = readers[i]->PCD_ReadRegister(MFRC522::VersionReg);
    readerOk[i] = version != 0x00 && version != 0xFF;
    if (!readerOk[i]) {
      char text[40];
      snprintf(text, sizeof text, "reader at seat %d not answering", READER_SEAT[i]);
      send(stud::formatError(line, text));
    }
  }
  for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
    pinMode(BUTTON_PIN[i], INPUT_PULLUP);
    buttonDown[i] = false;
    buttonChanged[i] = 0;
  }
  for (uint8_t i = 0; i < LED_COUNT; i++) pinMode(LED_PIN[i], OUTPUT);
  if (HAS_LCD) {
    lcd.init();
    lcd.backlight();
    lcd.print("Stud kiosk");
  }
  sayHello();
}

void loop() {
  while (Serial.available() > 0) {
    if (input.feed((char)Serial.read())) handleKiosk(input.line());
  }
  pollReaders();
  pollButtons();
  unsigned long now = millis();
  if (now - lastBlink >= 400) {
    lastBlink = now;
    blinkOn = !blinkOn;
    showLeds();
  }
}
