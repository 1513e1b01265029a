// MFRC522 registers and commands: NXP's MFRC522 data sheet, sections 9 and 10. Card commands:
// ISO/IEC 14443-3 type A (REQA, anticollision and select by cascade level, HLTA).
#include "Rc522.h"

#include <SPI.h>

namespace {

// registers (data sheet 9.2)
const uint8_t CommandReg = 0x01;
const uint8_t ComIrqReg = 0x04;
const uint8_t ErrorReg = 0x06;
const uint8_t FIFODataReg = 0x09;
const uint8_t FIFOLevelReg = 0x0A;
const uint8_t ControlReg = 0x0C;
const uint8_t BitFramingReg = 0x0D;
const uint8_t ModeReg = 0x11;
const uint8_t TxModeReg = 0x12;
const uint8_t RxModeReg = 0x13;
const uint8_t TxControlReg = 0x14;
const uint8_t TxASKReg = 0x15;
const uint8_t ModWidthReg = 0x24;
const uint8_t TModeReg = 0x2A;
const uint8_t TPrescalerReg = 0x2B;
const uint8_t TReloadRegH = 0x2C;
const uint8_t TReloadRegL = 0x2D;
const uint8_t VersionReg = 0x37;

// commands (data sheet 10.3)
const uint8_t CMD_IDLE = 0x00;
const uint8_t CMD_TRANSCEIVE = 0x0C;
const uint8_t CMD_SOFTRESET = 0x0F;

// bits
const uint8_t POWER_DOWN = 0x10;   // CommandReg
const uint8_t RX_IRQ = 0x20;       // ComIrqReg
const uint8_t IDLE_IRQ = 0x10;
const uint8_t TIMER_IRQ = 0x01;
const uint8_t START_SEND = 0x80;   // BitFramingReg
const uint8_t FLUSH = 0x80;        // FIFOLevelReg
const uint8_t COLL_ERR = 0x08;     // ErrorReg
const uint8_t FRAME_ERRORS = 0x13; // ErrorReg: BufferOvfl, ParityErr, ProtocolErr

// card commands (ISO/IEC 14443-3)
const uint8_t REQA = 0x26;
const uint8_t HLTA = 0x50;
const uint8_t CASCADE_TAG = 0x88;
const uint8_t SAK_MORE = 0x04;  // the uid goes on at the next cascade level
const uint8_t SELECT[3] = {0x93, 0x95, 0x97};

// The chip's timer gives up on a card's answer after (TRELOAD + 1) ticks of 25 us: 5 ms. A card
// answers a request within 0.1 ms; a chip that does not finish in LOST_MS is not there.
const uint16_t TRELOAD = 199;
const unsigned long LOST_MS = 30;

const SPISettings SPI_SETTINGS(4000000, MSBFIRST, SPI_MODE0);

}  // namespace

void (*Rc522::idle)() = nullptr;

void crcA(const uint8_t* data, uint8_t length, uint8_t* out) {
  uint16_t crc = 0x6363;
  for (uint8_t i = 0; i < length; i++) {
    uint8_t ch = data[i] ^ (uint8_t)(crc & 0xFF);
    ch ^= (uint8_t)(ch << 4);
    crc = (crc >> 8) ^ ((uint16_t)ch << 8) ^ ((uint16_t)ch << 3) ^ (ch >> 4);
  }
  out[0] = crc & 0xFF;
  out[1] = crc >> 8;
}

void Rc522::powerUp(uint8_t rstPin) {
  pinMode(rstPin, OUTPUT);
  digitalWrite(rstPin, LOW);
  delayMicroseconds(10);
  digitalWrite(rstPin, HIGH);
  delay(50);  // the oscillator starts (data sheet 8.8.2: 37.74 us and the crystal's start-up)
}

uint8_t Rc522::read(uint8_t reg) {
  SPI.beginTransaction(SPI_SETTINGS);
  digitalWrite(ss_, LOW);
  SPI.transfer(0x80 | (reg << 1));
  uint8_t value = SPI.transfer(0);
  digitalWrite(ss_, HIGH);
  SPI.endTransaction();
  return value;
}

void Rc522::write(uint8_t reg, uint8_t value) {
  SPI.beginTransaction(SPI_SETTINGS);
  digitalWrite(ss_, LOW);
  SPI.transfer((reg << 1) & 0x7E);
  SPI.transfer(value);
  digitalWrite(ss_, HIGH);
  SPI.endTransaction();
}

void Rc522::writeFifo(const uint8_t* data, uint8_t length) {
  SPI.beginTransaction(SPI_SETTINGS);
  digitalWrite(ss_, LOW);
  SPI.transfer((FIFODataReg << 1) & 0x7E);
  for (uint8_t i = 0; i < length; i++) SPI.transfer(data[i]);
  digitalWrite(ss_, HIGH);
  SPI.endTransaction();
}

uint8_t Rc522::version() { return read(VersionReg); }

bool Rc522::begin(uint8_t ssPin) {
  ss_ = ssPin;
  pinMode(ss_, OUTPUT);
  digitalWrite(ss_, HIGH);
  write(CommandReg, CMD_SOFTRESET);
  unsigned long start = millis();
  while ((read(CommandReg) & POWER_DOWN) && millis() - start < 50) delay(1);
  write(TxModeReg, 0x00);  // 106 kbit/s both ways, no CRC added by the chip
  write(RxModeReg, 0x00);
  write(ModWidthReg, 0x26);
  write(TModeReg, 0x80);       // TAuto: the timer runs from the end of each transmission
  write(TPrescalerReg, 0xA9);  // 13.56 MHz / (2 * 0xA9 + 1) = 40 kHz: 25 us a tick
  write(TReloadRegH, TRELOAD >> 8);
  write(TReloadRegL, TRELOAD & 0xFF);
  write(TxASKReg, 0x40);  // 100 % ASK modulation
  write(ModeReg, 0x3D);   // CRC preset 6363h, as ISO 14443-3
  write(TxControlReg, read(TxControlReg) | 0x03);  // antenna on (TX1 and TX2)
  uint8_t v = version();
  return v != 0x00 && v != 0xFF;
}

Rc522::Status Rc522::transceive(const uint8_t* data, uint8_t length, uint8_t lastBits,
                                uint8_t* back, uint8_t* backLength) {
  write(CommandReg, CMD_IDLE);
  write(ComIrqReg, 0x7F);  // clear every interrupt request
  write(FIFOLevelReg, FLUSH);
  writeFifo(data, length);
  write(BitFramingReg, lastBits);
  write(CommandReg, CMD_TRANSCEIVE);
  write(BitFramingReg, START_SEND | lastBits);
  unsigned long start = millis();
  for (;;) {
    uint8_t irq = read(ComIrqReg);
    if (irq & (RX_IRQ | IDLE_IRQ)) break;
    if ((irq & TIMER_IRQ) || millis() - start > LOST_MS) {
      write(CommandReg, CMD_IDLE);
      return (irq & TIMER_IRQ) ? TIMEOUT : FAILED;
    }
    if (idle) idle();
  }
  write(CommandReg, CMD_IDLE);
  uint8_t error = read(ErrorReg);
  if (error & FRAME_ERRORS) return FAILED;
  if (error & COLL_ERR) return COLLISION;
  uint8_t n = read(FIFOLevelReg) & 0x7F;
  if (n > *backLength || (read(ControlReg) & 0x07) != 0) return FAILED;  // only whole bytes
  for (uint8_t i = 0; i < n; i++) back[i] = read(FIFODataReg);
  *backLength = n;
  return OK;
}

void Rc522::halt() {
  uint8_t frame[4] = {HLTA, 0x00, 0, 0};
  crcA(frame, 2, frame + 2);
  uint8_t back[4];
  uint8_t n = sizeof back;
  transceive(frame, sizeof frame, 0, back, &n);  // a halted card does not answer
}

uint8_t Rc522::readNewCard(uint8_t* uid) {
  uint8_t request = REQA;
  uint8_t atqa[2];
  uint8_t n = sizeof atqa;
  if (transceive(&request, 1, 7, atqa, &n) != OK || n != 2) return 0;  // REQA is 7 bits
  uint8_t length = 0;
  for (uint8_t level = 0; level < 3; level++) {
    uint8_t frame[9] = {SELECT[level], 0x20};  // anticollision: all 32 bits of this level unknown
    uint8_t part[5];
    n = sizeof part;
    if (transceive(frame, 2, 0, part, &n) != OK || n != 5) return 0;
    if ((part[0] ^ part[1] ^ part[2] ^ part[3]) != part[4]) return 0;  // BCC
    frame[1] = 0x70;  // select: the whole level, then CRC_A
    memcpy(frame + 2, part, 5);
    crcA(frame, 7, frame + 7);
    uint8_t sak[3];
    n = sizeof sak;
    if (transceive(frame, sizeof frame, 0, sak, &n) != OK || n != 3) return 0;
    uint8_t check[2];
    crcA(sak, 1, check);
    if (check[0] != sak[1] || check[1] != sak[2]) return 0;
    bool more = (sak[0] & SAK_MORE) && part[0] == CASCADE_TAG;
    memcpy(uid + length, more ? part + 1 : part, more ? 3 : 4);
    length += more ? 3 : 4;
    if (!more) {
      halt();
      return length;
    }
  }
  return 0;
}
