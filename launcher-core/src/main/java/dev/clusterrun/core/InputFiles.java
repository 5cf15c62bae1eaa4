package dev.clusterrun.core;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a file a person named, turning every failure into a {@link BadInputException}. */
public final class InputFiles {
  private InputFiles() {}

  /**
   * @param what what the file should be, for "is a directory, not a hostfile"
   * @throws BadInputException with the path as given for subject
   */
  public static String read(Path file, String what) {
    String name = file.toString();
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new BadInputException(name, "no such file", e);
    } catch (AccessDeniedException e) {
      throw new BadInputException(name, "permission denied", e);
    } catch (CharacterCodingException e) {
      throw new BadInputException(name, "not a text file (it is not valid UTF-8)", e);
    } catch (IOException e) {
      if (Files.isDirectory(file)) {
        throw new BadInputException(name, "is a directory, not " + what, e);
      }
      throw new BadInputException(name, "cannot be read: " + e.getMessage(), e);
    }
  }
}
