package dev.clusterrun.core.remote;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyFactorySpi;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;

/**
 * sshj asks the JCA for a {@code KeyFactory} named {@code ECDSA}, a BouncyCastle name; the JDK
 * calls it {@code EC}. Without BouncyCastle (which clusterrun leaves out on purpose) every ECDSA
 * host key, known_hosts line and user key fails with "ECDSA KeyFactory not available". This
 * registers the JDK's EC key factory under that name too, once, at the lowest priority.
 */
final class EcdsaKeyFactoryAlias extends Provider {
  private static final long serialVersionUID = 1L;
  private static final String NAME = "ClusterrunEcdsaAlias";

  private EcdsaKeyFactoryAlias() {
    super(NAME, "1.0", "KeyFactory.ECDSA as an alias of the JDK's EC key factory");
    putService(
        new Service(this, "KeyFactory", "ECDSA", EcKeyFactory.class.getName(), null, null) {
          @Override
          public Object newInstance(Object constructorParameter) throws NoSuchAlgorithmException {
            return new EcKeyFactory();
          }
        });
  }

  static synchronized void install() {
    if (Security.getProvider(NAME) != null) {
      return;
    }
    try {
      KeyFactory.getInstance("ECDSA");
      return; // BouncyCastle or another provider has it
    } catch (NoSuchAlgorithmException e) {
      Security.addProvider(new EcdsaKeyFactoryAlias());
    }
  }

  /** Delegates to the JDK's {@code EC} key factory. */
  static final class EcKeyFactory extends KeyFactorySpi {
    private final KeyFactory ec;

    EcKeyFactory() throws NoSuchAlgorithmException {
      ec = KeyFactory.getInstance("EC");
    }

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
      return ec.generatePublic(spec);
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
      return ec.generatePrivate(spec);
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> spec)
        throws InvalidKeySpecException {
      return ec.getKeySpec(key, spec);
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
      return ec.translateKey(key);
    }
  }
}
