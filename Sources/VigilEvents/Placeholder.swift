// VigilEvents
