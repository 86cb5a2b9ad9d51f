// VigilScoring
