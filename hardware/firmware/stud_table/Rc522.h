// An MFRC522 (RC522 module) on the SPI bus, reduced to what a table needs: is the chip there, and
// the uid of a card that was just put on its antenna.
//
// A card is read once: after its uid is read it is halted (ISO/IEC 14443-3 HLTA) and a halted card
// does not answer the request (REQA) again until it leaves the field. So cards may pile up on a
// seat's reader: only the new one answers. Two new cards put down at the same instant collide and
// are read when one of them is lifted.
#pragma once

#include <Arduino.h>

class Rc522 {
 public:
  static const uint8_t MAX_UID = 10;

  // Called again and again while the chip waits for a card's answer (a few milliseconds): the
  // sketch serves its serial line there, so nothing the kiosk sends is lost meanwhile.
  static void (*idle)();

  // Pulls the shared reset line of every reader high (after a low pulse) and waits for their
  // oscillators. Call once before begin().
  static void powerUp(uint8_t rstPin);

  // Soft reset and configuration of the chip selected by `ssPin`; false when it does not answer.
  bool begin(uint8_t ssPin);
  uint8_t version();

  // The uid of a card that arrived on the antenna (its length: 4, 7 or 10), or 0 for none.
  uint8_t readNewCard(uint8_t* uid);

 private:
  enum Status { OK, TIMEOUT, COLLISION, FAILED };

  uint8_t ss_ = 0;

  uint8_t read(uint8_t reg);
  void write(uint8_t reg, uint8_t value);
  void writeFifo(const uint8_t* data, uint8_t length);
  Status transceive(const uint8_t* data, uint8_t length, uint8_t lastBits, uint8_t* back,
                    uint8_t* backLength);
  void halt();
};

// CRC_A of ISO/IEC 14443-3 (what a card appends to its frames), written low byte first.
void crcA(const uint8_t* data, uint8_t length, uint8_t* out);
